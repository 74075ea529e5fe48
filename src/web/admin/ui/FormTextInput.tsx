import { TextInput, type TextInputProps } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/**
 * A TextInput bound to one field of a Mantine form: value, change, blur and error come from the
 * form, and the form's key for the field remounts the input when the form resets it.
 */
export function FormTextInput<Values>({
  form,
  field,
  ...props
}: Omit<TextInputProps, 'form'> & {
  /** The parts of useForm's answer it uses (so a form with transformValues fits too). */
  form: Pick<UseFormReturnType<Values>, 'key' | 'getInputProps'>;
  field: keyof Values & string;
}) {
  return <TextInput {...props} key={form.key(field)} {...form.getInputProps(field)} />;
}
