import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/**
 * Every search and filter field (admin lists, lecture search, the transcript): a search icon, the
 * text as typed, Escape empties it. `label` names it for screen readers; `showLabel` also shows it.
 */
export function SearchInput({
  label,
  showLabel = false,
  value,
  onChange,
  ...input
}: Omit<TextInputProps, 'onChange' | 'label'> & {
  label: string;
  showLabel?: boolean;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <TextInput
      {...(showLabel ? { label } : { 'aria-label': label })}
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onChange('');
      }}
      {...input}
    />
  );
}
