import { NumberInput, type NumberInputProps } from '@mantine/core';
import { GRANT_DAYS_MAX } from '../../../contract/courses';

/** Whole days of course access, 1 to GRANT_DAYS_MAX: the field of every grant, extend and enrol form. */
export function DaysInput({ label = 'Days of access', ...props }: NumberInputProps) {
  return (
    <NumberInput
      label={label}
      min={1}
      max={GRANT_DAYS_MAX}
      allowDecimal={false}
      allowNegative={false}
      {...props}
    />
  );
}
