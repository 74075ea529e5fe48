import { Stack } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { FormActions } from './FormActions';
import { ServerReason } from './ServerReason';

/**
 * The form of an Edit modal: its fields, the server's reason for a refusal where the form shows
 * one, then Cancel and Save. noValidate: the form's schema checks the fields, with section 5's words.
 */
export function EditForm({
  onSubmit,
  pending,
  onCancel,
  reason,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
  onCancel(): void;
  /** Left out where the toast alone says why. */
  reason?: string | null;
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack>
        {children}
        {reason !== undefined && <ServerReason reason={reason} />}
        <FormActions label="Save" pending={pending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
