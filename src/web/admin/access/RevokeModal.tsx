import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { validation } from '../../../contract/messages';
import { FormActions } from '../ui/FormActions';

export interface RevokeRequest {
  studentName: string;
  rollno: string;
  courseLabel: string;
}

interface RevokeModalProps {
  request: RevokeRequest | null;
  pending: boolean;
  onSubmit(reason: string): void;
  onClose(): void;
}

function RevokeForm({ request, pending, onSubmit, onClose }: RevokeModalProps & { request: RevokeRequest }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError(validation.revokeReason);
    onSubmit(reason.trim());
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          <b>{request.studentName}</b> ({request.rollno}) loses access to {request.courseLabel} at once. The
          student sees this reason.
        </Text>
        <Textarea
          label="Reason"
          placeholder="e.g. Fees pending for term 2"
          data-autofocus
          autosize
          minRows={2}
          maxLength={500}
          value={reason}
          onChange={(event) => {
            setReason(event.currentTarget.value);
            setError(null);
          }}
          error={error}
        />
        <FormActions label="Revoke" pending={pending} onCancel={onClose} color="red" />
      </Stack>
    </form>
  );
}

/** Asks why access is revoked; 'Please enter revoke reason!' when blank (SPEC.md section 5). */
export function RevokeModal(props: RevokeModalProps) {
  return (
    <Modal opened={props.request !== null} onClose={props.onClose} title="Revoke access" centered>
      {props.request && <RevokeForm {...props} request={props.request} />}
    </Modal>
  );
}
