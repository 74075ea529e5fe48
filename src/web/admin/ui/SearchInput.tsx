import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** A list's filter box: a search icon, the text as typed. */
export function SearchInput({
  label,
  value,
  onChange,
  ...input
}: Omit<TextInputProps, 'onChange'> & { label: string; value: string; onChange(value: string): void }) {
  return (
    <TextInput
      aria-label={label}
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      {...input}
    />
  );
}
