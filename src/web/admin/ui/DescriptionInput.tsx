import { Textarea, type TextareaProps } from '@mantine/core';

/** The required, growing Description field of the course and video forms. */
export function DescriptionInput(props: TextareaProps) {
  return <Textarea label="Description" withAsterisk autosize minRows={3} maxRows={8} {...props} />;
}
