import type { AdminVideo } from '../../../contract/videos';
import { adminToasts } from '../../../contract/messages';
import { adminApi } from '../../api/admin';
import { LearningCountsLine } from '../../learning/LearningCountsLine';
import { ConfirmRemoveModal } from '../ui/ConfirmModal';
import { useAdminMutation } from '../ui/use-admin-mutation';

/** The confirmation before Delete Video: the streamer's files go first, then the records (SPEC.md section 7). */
export function DeleteVideoModal({ video, onClose }: { video: AdminVideo | null; onClose(): void }) {
  const remove = useAdminMutation(adminApi.deleteVideo, {
    success: adminToasts.videoDeleted,
    failure: adminToasts.deleteVideoFailed,
    onDone: onClose,
  });
  return (
    <ConfirmRemoveModal
      target={video}
      title="Delete video?"
      action="Delete Video"
      mutation={remove}
      onClose={onClose}
    >
      {(doomed) => (
        <>
          <b>{doomed.title}</b> and its files will be deleted, and every student loses access to it.
          <LearningCountsLine videoId={doomed._id} /> This cannot be undone.
        </>
      )}
    </ConfirmRemoveModal>
  );
}
