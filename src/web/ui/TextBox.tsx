import { Textarea, type TextareaProps } from '@mantine/core';
import type { Ref } from 'react';

/** A text box that grows as it fills (from 2 rows) and hands back its text as typed. */
export function TextBox({
  onValue,
  ...props
}: Omit<TextareaProps, 'value' | 'onChange'> & {
  ref?: Ref<HTMLTextAreaElement>;
  value: string;
  onValue(text: string): void;
}) {
  return <Textarea autosize minRows={2} onChange={(e) => onValue(e.currentTarget.value)} {...props} />;
}
