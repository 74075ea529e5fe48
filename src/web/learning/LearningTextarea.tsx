import { Textarea, type TextareaProps } from '@mantine/core';
import type { Ref } from 'react';
import { TEXT_MAX_CHARS } from '../../contract/learning';

/**
 * The text box of a note and of a question's details: grows from 2 to 8 rows and stops at
 * TEXT_MAX_CHARS, the server's limit for both; `onValue` gets the text as typed.
 */
export function LearningTextarea({
  onValue,
  ...props
}: Omit<TextareaProps, 'value' | 'onChange'> & {
  ref?: Ref<HTMLTextAreaElement>;
  value: string;
  onValue(text: string): void;
}) {
  return (
    <Textarea
      autosize
      minRows={2}
      maxRows={8}
      maxLength={TEXT_MAX_CHARS}
      onChange={(e) => onValue(e.currentTarget.value)}
      {...props}
    />
  );
}
