import { Alert, Anchor, Button, Group, MultiSelect, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { AdminVideo, DropdownStudent } from '../../../contract/videos';
import { adminMessages, adminToasts, validation } from '../../../contract/messages';
import type { MessageResponse } from '../../../contract/auth';
import { adminApi, adminKeys, useVideoAccess } from '../../api/admin';
import { toast, toastOnce } from '../../ui/toast';
import { LoadError } from '../ui/LoadError';

const options = (students: DropdownStudent[]) =>
  students.map((s) => ({ value: s._id, label: `${s.rollno} · ${s.name}` }));

/** One side of the access split: pick students, then Give Access or Revoke Access. */
type AccessChange = 'grant' | 'revoke';
/** The two sides, left to right: who may be given access, and who may lose it. */
const CHANGES: AccessChange[] = ['grant', 'revoke'];
const SIDES: Record<AccessChange, { label: string; action: string; color: string }> = {
  grant: { label: 'Students without access', action: 'Give Access', color: 'teal' },
  revoke: { label: 'Students with access', action: 'Revoke Access', color: 'red' },
};

function AccessSide({
  label,
  students,
  action,
  color,
  pending,
  onApply,
}: {
  label: string;
  students: DropdownStudent[];
  action: string;
  color: string;
  pending: boolean;
  onApply(ids: string[], done: () => void): void;
}) {
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack gap="xs">
      <MultiSelect
        label={`${label} (${students.length})`}
        placeholder={students.length ? 'Choose students' : 'None'}
        data={options(students)}
        value={picked}
        onChange={(ids) => {
          setPicked(ids);
          setError(null);
        }}
        searchable
        clearable
        hidePickedOptions
        maxDropdownHeight={240}
        nothingFoundMessage="No students"
        error={error}
        comboboxProps={{ withinPortal: true }}
      />
      <Group gap="xs">
        <Button
          color={color}
          variant="light"
          loading={pending}
          onClick={() => {
            if (picked.length === 0) {
              setError(validation.noStudents);
              toast.error(validation.noStudents);
              return;
            }
            onApply(picked, () => setPicked([]));
          }}
        >
          {action}
        </Button>
        {students.length > 0 && (
          <Anchor
            component="button"
            type="button"
            size="xs"
            onClick={() => setPicked(students.map((s) => s._id))}
          >
            Select all
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}

/** A video's panel on /editvideo, loaded when opened: who may watch it, changes to that, and Delete Video. */
export function VideoAccessPanel({
  video,
  opened,
  onDelete,
}: {
  video: AdminVideo;
  opened: boolean;
  onDelete(video: AdminVideo): void;
}) {
  const queryClient = useQueryClient();
  const access = useVideoAccess(video._id, video.course?._id, opened);

  useEffect(() => {
    if (access.isError) toastOnce('error', adminToasts.studentsFailed);
  }, [access.isError]);

  const change = useMutation({
    mutationFn: ({
      kind,
      ids,
    }: {
      kind: AccessChange;
      ids: string[];
      done(): void;
    }): Promise<MessageResponse> =>
      kind === 'grant' ? adminApi.grantVideo(video._id, ids) : adminApi.revokeVideo(video._id, ids),
    onSuccess: async ({ message }, { kind, done }) => {
      toast.success(message || (kind === 'grant' ? adminToasts.accessGranted : adminToasts.accessRevoked));
      done();
      await queryClient.invalidateQueries({ queryKey: adminKeys.videoAccess(video._id) });
    },
    onError: () => toast.error(adminToasts.accessUpdateFailed),
  });

  const deleteButton = (
    <Group justify="flex-end">
      <Button
        color="red"
        variant="outline"
        leftSection={<IconTrash size={16} aria-hidden="true" />}
        onClick={() => onDelete(video)}
      >
        Delete Video
      </Button>
    </Group>
  );

  if (!video.course) {
    return (
      <Stack>
        <Alert color="yellow" variant="light">
          {adminMessages.unassignedVideo}{' '}
          <Anchor component={Link} to="/editvideodetails" replace size="sm">
            Edit Video Details
          </Anchor>
        </Alert>
        {deleteButton}
      </Stack>
    );
  }

  let body;
  if (access.isPending)
    body = (
      <SimpleGrid cols={{ base: 1, sm: 2 }} aria-busy="true" aria-label="Loading students">
        <Skeleton height={60} />
        <Skeleton height={60} />
      </SimpleGrid>
    );
  else if (access.isError)
    body = <LoadError title={adminToasts.studentsFailed} onRetry={() => void access.refetch()} />;
  else {
    const { studentsWithAccess, studentsWithoutAccess } = access.data;
    body =
      studentsWithAccess.length + studentsWithoutAccess.length === 0 ? (
        <Text size="sm" c="dimmed">
          {adminToasts.noStudentsForCourse}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {CHANGES.map((kind) => (
            <AccessSide
              key={kind}
              {...SIDES[kind]}
              students={kind === 'grant' ? studentsWithoutAccess : studentsWithAccess}
              pending={change.isPending && change.variables?.kind === kind}
              onApply={(ids, done) => change.mutate({ kind, ids, done })}
            />
          ))}
        </SimpleGrid>
      );
  }

  return (
    <Stack>
      {body}
      {deleteButton}
    </Stack>
  );
}
