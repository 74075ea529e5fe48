import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { ServerReason } from './ServerReason';

/**
 * The end of a one-action admin form (no Cancel): the server's reason for the last refusal, then the
 * right-aligned red submit with the mutation's spinner.
 */
export function SubmitRow({
  label,
  mutation,
  disabled,
}: {
  label: ReactNode;
  mutation: { isPending: boolean; isError: boolean; reason: string | null };
  disabled?: boolean;
}) {
  return (
    <>
      <ServerReason reason={mutation.isError ? mutation.reason : null} />
      <Group justify="flex-end">
        <Button type="submit" color="red" disabled={disabled} loading={mutation.isPending}>
          {label}
        </Button>
      </Group>
    </>
  );
}
