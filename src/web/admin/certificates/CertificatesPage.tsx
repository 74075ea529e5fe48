import { Anchor, Badge, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import {
  certificateMessages,
  REVOKE_REASON_MAX_CHARS,
  type AdminCertificate,
} from '../../../contract/certificates';
import { certificateApi, certificateKeys, useAdminCertificates } from '../../api/certificates';
import { RevokedMark } from '../../certificates/RevokedMark';
import { TextBox } from '../../ui/TextBox';
import { ConfirmModal } from '../ui/ConfirmModal';
import { RowButton } from '../ui/DataTable';
import { Empty } from '../ui/Empty';
import { FormActions } from '../ui/FormActions';
import { formatDateTime } from '../ui/format';
import { LoadedTable } from '../ui/LoadedList';
import { PageHeader } from '../ui/PageHeader';
import { ServerReason } from '../ui/ServerReason';
import { useAdminMutation, useChosenMutation } from '../ui/use-admin-mutation';

/**
 * /admincertificates: every certificate issued, newest first. Revoking asks for a reason (the
 * public page shows it, the status list says it to any verifier); reissuing revokes the old one and
 * issues a new one with the student's current name and roll number. Admins only.
 */
export default function CertificatesPage() {
  const certificates = useAdminCertificates();
  const [revoking, setRevoking] = useState<AdminCertificate | null>(null);
  const reissue = useChosenMutation((c: AdminCertificate) => certificateApi.reissue(c._id), {
    success: certificateMessages.reissued,
    failure: 'Could not reissue the certificate.',
    serverWords: true,
    refresh: certificateKeys.admin,
  });
  const reissuing = reissue.target;

  return (
    <>
      <PageHeader
        title="Certificates"
        description="Issued when a student completes a course. Anyone can check one at its verification page; a revoked one says so there, with your reason."
      />
      <LoadedTable
        minWidth={720}
        columns={['Serial', 'Student', 'Course', 'Issued', 'Status', '']}
        query={certificates}
        failure={certificateMessages.listFailed}
        loading="Loading certificates"
        rows={4}
        empty={
          <Empty
            title={certificateMessages.adminEmpty}
            description="They appear here as students complete courses."
          />
        }
      >
        {(c) => (
          <Table.Tr key={c._id} data-testid="certificate-row">
            <Table.Td>
              <Anchor href={`/verify/${c.serial}`} target="_blank" size="sm" ff="monospace">
                {c.serial}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Text size="sm" fw={500}>
                {c.name}
              </Text>
              <Text size="xs" c="dimmed">
                {c.rollno}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{c.course}</Text>
              <Text size="xs" c="dimmed">
                Batch {c.batch}
              </Text>
            </Table.Td>
            <Table.Td>{formatDateTime(c.issuedAt)}</Table.Td>
            <Table.Td>
              {c.status === 'valid' ? (
                <Badge color="green" variant="light">
                  Valid
                </Badge>
              ) : (
                <Stack gap={2}>
                  <RevokedMark reason={c.revokedReason} />
                </Stack>
              )}
            </Table.Td>
            <Table.Td>
              <Group gap={6} justify="flex-end" wrap="nowrap">
                <RowButton
                  variant="default"
                  label={`Reissue ${c.serial} of ${c.name}`}
                  onClick={() => reissue.choose(c)}
                >
                  Reissue
                </RowButton>
                {c.status === 'valid' && (
                  <RowButton
                    variant="outline"
                    color="red"
                    label={`Revoke ${c.serial} of ${c.name}`}
                    onClick={() => setRevoking(c)}
                  >
                    Revoke
                  </RowButton>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
      </LoadedTable>
      {revoking && <RevokeModal certificate={revoking} onClose={() => setRevoking(null)} />}
      <ConfirmModal
        opened={reissuing !== null}
        title="Reissue this certificate?"
        action="Reissue"
        pending={reissue.isPending}
        onConfirm={() => reissuing && reissue.mutate(reissuing)}
        onClose={reissue.close}
      >
        {reissuing &&
          `${reissuing.serial} of ${reissuing.name} ${reissuing.status === 'valid' ? 'is revoked as reissued, and ' : ''}a new certificate is issued with the student's current name and roll number.`}
      </ConfirmModal>
    </>
  );
}

/** The revoke dialog: a reason is required; the public page shows it. */
function RevokeModal({ certificate, onClose }: { certificate: AdminCertificate; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const revoke = useAdminMutation((why: string) => certificateApi.revoke(certificate._id, why), {
    success: certificateMessages.revoked,
    failure: 'Could not revoke the certificate.',
    serverWords: true,
    onDone: onClose,
    refresh: certificateKeys.admin,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const why = reason.trim();
    if (!why || why.length > REVOKE_REASON_MAX_CHARS) return setError(certificateMessages.reasonInvalid);
    setError(null);
    revoke.mutate(why);
  };
  return (
    <Modal opened onClose={onClose} title={certificateMessages.confirmRevoke} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            {certificate.serial} of {certificate.name} ({certificate.course}, batch {certificate.batch}) will
            show as revoked on its verification page, with this reason, and to every verifier of its
            credential.
          </Text>
          <TextBox
            label="Reason"
            required
            maxLength={REVOKE_REASON_MAX_CHARS}
            value={reason}
            onValue={setReason}
            error={error}
            data-autofocus
          />
          <ServerReason reason={revoke.reason} />
          <FormActions label="Revoke" color="red" pending={revoke.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
