import { useState } from 'react';

/** Per-field messages of a form checked by hand on submit; a field's message goes as soon as it changes. */
export function useFieldErrors<F extends string>() {
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  /** `set`, clearing the field's message first. */
  const clearing =
    <V>(field: F, set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setErrors((e) => ({ ...e, [field]: undefined }));
    };
  return { errors, setErrors, clearing };
}
