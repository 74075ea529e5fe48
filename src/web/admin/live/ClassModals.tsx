import { Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { liveMessages, type AdminLiveClass } from '../../../contract/live';
import { liveApi } from '../../api/live';
import { ConfirmModal, ConfirmRemoveModal } from '../ui/ConfirmModal';
import { editModalOf, type EditFormProps } from '../ui/EditModal';
import { FormActions } from '../ui/FormActions';
import { ServerReason } from '../ui/ServerReason';
import { useAdminMutation } from '../ui/use-admin-mutation';
import { ClassFields } from './ClassFields';
import { classFormOf, formProblem, fromLocalInput, type ClassFormValues } from './class-form';

/** The fields that changed, as PATCH takes them (start and length only before the class is live). */
function changes(live: AdminLiveClass, values: ClassFormValues) {
  const body: { title?: string; description?: string; startsAt?: string; minutes?: number } = {};
  if (values.title.trim() !== live.title) body.title = values.title.trim();
  if (values.description.trim() !== live.description) body.description = values.description.trim();
  if (live.status === 'scheduled') {
    const startsAt = fromLocalInput(values.startsLocal);
    if (new Date(startsAt).getTime() !== new Date(live.startsAt).getTime()) body.startsAt = startsAt;
    if (Number(values.minutes) !== live.minutes) body.minutes = Number(values.minutes);
  }
  return body;
}

function EditClassForm({ item: live, onDone }: EditFormProps<AdminLiveClass>) {
  const [values, setValues] = useState(() => classFormOf(live));
  const [tried, setTried] = useState(false);
  const save = useAdminMutation(liveApi.update, {
    success: liveMessages.updated,
    failure: 'Could not update the class.',
    onDone,
  });
  const problem = formProblem(values, false);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (problem || save.isPending) return;
        const body = changes(live, values);
        if (Object.keys(body).length === 0) return onDone();
        save.mutate({ classId: live._id, ...body });
      }}
    >
      <Stack gap="sm">
        <ClassFields
          values={values}
          onChange={setValues}
          lockTime={live.status !== 'scheduled'}
          idPrefix="edit"
        />
        {live.status === 'live' && (
          <Text size="xs" c="dimmed">
            {liveMessages.startedCannotMove}
          </Text>
        )}
        {tried && problem && (
          <Text size="sm" c="red.7" role="alert">
            {problem}
          </Text>
        )}
        <ServerReason reason={save.isError ? save.reason : null} />
        <FormActions label="Save class" pending={save.isPending} onCancel={onDone} />
      </Stack>
    </form>
  );
}

/** Edit a class in a dialog: title and description always, start and length before it is live. */
export const EditClassModal = editModalOf('Edit the class', EditClassForm);

/** Delete a class after a confirmation: a scheduled one goes with its empty lecture, an ended one leaves its recording. */
export function DeleteClassModal({
  live,
  onClose,
  onDeleted,
}: {
  live: AdminLiveClass | null;
  onClose(): void;
  onDeleted?(): void;
}) {
  const remove = useAdminMutation((c: AdminLiveClass) => liveApi.remove(c._id), {
    success: liveMessages.deleted,
    failure: 'Could not delete the class.',
    onDone: () => {
      onClose();
      onDeleted?.();
    },
  });
  return (
    <ConfirmRemoveModal
      target={live}
      title="Delete this class?"
      action="Delete"
      mutation={remove}
      onClose={onClose}
    >
      {(c) =>
        c.status === 'ended'
          ? `"${c.title}" leaves the schedule; its recording stays a lecture of the course.`
          : `"${c.title}" is cancelled and leaves the schedule with its empty lecture. Its students no longer see it.`
      }
    </ConfirmRemoveModal>
  );
}

/** Rotate a class's stream key after a confirmation: the encoder needs the new one. */
export function RotateKeyModal({ live, onClose }: { live: AdminLiveClass | null; onClose(): void }) {
  const rotate = useAdminMutation((c: AdminLiveClass) => liveApi.rotateKey(c._id), {
    success: liveMessages.keyRotated,
    failure: 'Could not set a new stream key.',
    onDone: onClose,
  });
  return (
    <ConfirmModal
      opened={live !== null}
      title="Set a new stream key?"
      action="New key"
      color="red"
      pending={rotate.isPending}
      onConfirm={() => live && rotate.mutate(live)}
      onClose={onClose}
    >
      The current key and SRT address stop working: an encoder using them cannot connect again until you give
      it the new ones.
    </ConfirmModal>
  );
}
