import { Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminVideo } from '../../../contract/videos';
import { adminToasts } from '../../../contract/messages';
import { adminApi, adminKeys } from '../../api/admin';
import { messageOf } from '../../api/client';
import { toast } from '../../ui/toast';
import { FormActions } from '../ui/FormActions';

/** The confirmation before Delete Video: the streamer's files go first, then the records (SPEC.md section 7). */
export function DeleteVideoModal({ video, onClose }: { video: AdminVideo | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: adminApi.deleteVideo,
    onSuccess: async ({ message }) => {
      toast.success(message || adminToasts.videoDeleted);
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => toast.error(messageOf(error, adminToasts.deleteVideoFailed)),
  });

  return (
    <Modal opened={video !== null} onClose={onClose} title="Delete video?" centered>
      {video && (
        <Stack>
          <Text size="sm">
            <b>{video.title}</b> and its files will be deleted, and every student loses access to it. This
            cannot be undone.
          </Text>
          <FormActions
            label="Delete Video"
            color="red"
            pending={remove.isPending}
            onCancel={onClose}
            onConfirm={() => remove.mutate(video)}
            focusCancel
          />
        </Stack>
      )}
    </Modal>
  );
}
