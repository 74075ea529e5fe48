import type { ComponentProps } from 'react';
import { TEXT_MAX_CHARS } from '../../contract/learning';
import { TextBox } from '../ui/TextBox';

/**
 * The text box of a note and of a question's details: grows from 2 to 8 rows and stops at
 * TEXT_MAX_CHARS, the server's limit for both; `onValue` gets the text as typed.
 */
export function LearningTextarea(props: ComponentProps<typeof TextBox>) {
  return <TextBox maxRows={8} maxLength={TEXT_MAX_CHARS} {...props} />;
}
