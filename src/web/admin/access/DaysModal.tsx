import { Modal, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { GrantDays } from '../../../contract/courses';
import { validation } from '../../../contract/messages';
import { formatDMY } from '../ui/format';
import { FormActions } from '../ui/FormActions';
import { DaysInput } from '../ui/DaysInput';

const DAY_MS = 86_400_000;

export interface DaysRequest {
  /** 'Grant' for a revoked student, 'Extend' for an active one. */
  action: 'Grant' | 'Extend';
  studentName: string;
  rollno: string;
  courseLabel: string;
  /** ISO timestamp of the current expiry. */
  currentExpiry: string;
}

/** The expiry a grant of `days` gives: added to the later of now and the current expiry (SPEC.md section 9). */
export function expiryAfter(days: number, currentExpiry: string, now = Date.now()): Date {
  return new Date(Math.max(now, new Date(currentExpiry).getTime()) + days * DAY_MS);
}

interface DaysModalProps {
  request: DaysRequest | null;
  pending: boolean;
  onSubmit(days: number): void;
  onClose(): void;
}

function DaysForm({ request, pending, onSubmit, onClose }: DaysModalProps & { request: DaysRequest }) {
  const [days, setDays] = useState<number | string>('');
  const [error, setError] = useState<string | null>(null);
  const parsed = GrantDays.safeParse(days);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success) return setError(validation.grantDays);
    onSubmit(parsed.data);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          <b>{request.studentName}</b> ({request.rollno}) · {request.courseLabel}
        </Text>
        <DaysInput
          label="Days"
          description="Added to the later of today and the current expiry."
          data-autofocus
          value={days}
          onChange={(value) => {
            setDays(value);
            setError(null);
          }}
          error={error}
        />
        {parsed.success && (
          <Text size="sm" c="dimmed">
            New expiry: {formatDMY(expiryAfter(parsed.data, request.currentExpiry).toISOString())}
          </Text>
        )}
        <FormActions label={request.action} pending={pending} onCancel={onClose} />
      </Stack>
    </form>
  );
}

/** Asks how many days to grant or extend; 'Please enter valid days!' otherwise (SPEC.md section 5). */
export function DaysModal(props: DaysModalProps) {
  const { request, onClose } = props;
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      title={request ? `${request.action} access` : ''}
      centered
    >
      {request && <DaysForm {...props} request={request} />}
    </Modal>
  );
}
