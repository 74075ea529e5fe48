import type { AdminStudent } from '../../../contract/admin-students';
import { adminMessages } from '../../../contract/messages';
import { studentApi } from '../../api/admin-students';
import { ConfirmModal } from '../ui/ConfirmModal';
import { useAdminMutation } from '../ui/use-admin-mutation';

/** Mails a student a new one-time password (their current one and sessions stop working). */
export function ResendPasswordModal({ student, onClose }: { student: AdminStudent | null; onClose(): void }) {
  const resend = useAdminMutation(studentApi.resendPassword, {
    success: adminMessages.passwordResent,
    failure: adminMessages.passwordResendFailed,
    serverWords: true,
    onDone: onClose,
    refresh: false,
  });
  return (
    <ConfirmModal
      opened={student !== null}
      title="Re-send initial password?"
      action="Re-send password"
      pending={resend.isPending}
      onConfirm={() => resend.mutate(student!._id)}
      onClose={onClose}
    >
      A new one-time password is mailed to <b>{student?.email}</b>. {student?.name}&apos;s current password
      and sessions stop working, and they choose their own password at the next sign-in.
    </ConfirmModal>
  );
}
