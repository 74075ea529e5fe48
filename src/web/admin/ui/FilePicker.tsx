import { FileInput, type FileInputProps } from '@mantine/core';
import type { IconFile } from '@tabler/icons-react';

/**
 * Every file field of the back office: one file, an icon for its kind, and a clear button that
 * screen readers name ("Remove the chosen file", or the chosen `what`).
 */
export function FilePicker({
  icon: Icon,
  what = 'file',
  ...input
}: Omit<FileInputProps, 'clearable' | 'clearButtonProps' | 'leftSection'> & {
  icon: typeof IconFile;
  what?: string;
}) {
  return (
    <FileInput
      clearable
      clearButtonProps={{ 'aria-label': `Remove the chosen ${what}` }}
      leftSection={<Icon size={16} aria-hidden="true" />}
      {...input}
    />
  );
}
