import { Drawer, Skeleton, Stack, Text, Timeline } from '@mantine/core';
import { IconKey, IconKeyOff, IconMovie, IconMovieOff } from '@tabler/icons-react';
import type { AccessAction, AccessHistoryEvent } from '../../../contract/admin-students';
import { useStudentHistory } from '../../api/admin-students';
import { formatDateTime, formatDMY } from '../ui/format';
import { LoadError } from '../ui/LoadError';

const HISTORY_FAILED = 'Failed to load the access history.';

const ACTIONS: Record<AccessAction, { label: string; color: string; icon: typeof IconKey }> = {
  'course.enrol': { label: 'Enrolled', color: 'teal', icon: IconKey },
  'course.grant': { label: 'Course access granted', color: 'teal', icon: IconKey },
  'course.extend': { label: 'Course access extended', color: 'blue', icon: IconKey },
  'course.revoke': { label: 'Course access revoked', color: 'red', icon: IconKeyOff },
  'video.grant': { label: 'Video access granted', color: 'teal', icon: IconMovie },
  'video.revoke': { label: 'Video access revoked', color: 'red', icon: IconMovieOff },
  'video.suspected-download': {
    label: 'Suspected download: keys refused',
    color: 'orange',
    icon: IconKeyOff,
  },
};

function EventItem({ event }: { event: AccessHistoryEvent }) {
  const what = [
    event.course && `${event.course.name} (Batch ${event.course.batch})`,
    event.video && `“${event.video.title}”${event.video._id ? '' : ' (deleted)'}`,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <>
      <Text size="sm">{what}</Text>
      {(event.oldexpiration || event.newexpiration) && (
        <Text size="xs" c="dimmed">
          Expiry: {event.oldexpiration ? formatDMY(event.oldexpiration) : 'none'} →{' '}
          {event.newexpiration ? formatDMY(event.newexpiration) : 'none'}
        </Text>
      )}
      {event.reason && (
        <Text size="xs" c="dimmed">
          Reason: {event.reason}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {formatDateTime(event.at)}
        {event.actor ? ` by ${event.actor.name || event.actor.username}` : ''}
      </Text>
    </>
  );
}

/** A student's access changes, newest first, from the audit events. */
export function HistoryDrawer({ studentId, onClose }: { studentId: string | null; onClose(): void }) {
  const history = useStudentHistory(studentId);
  const student = history.data?.student;
  return (
    <Drawer
      opened={studentId !== null}
      onClose={onClose}
      position="right"
      title={student ? `Access history: ${student.name} (${student.rollno})` : 'Access history'}
      size="md"
    >
      {history.isPending ? (
        <Stack aria-busy="true" aria-label="Loading the history">
          <Skeleton height={48} />
          <Skeleton height={48} />
          <Skeleton height={48} />
        </Stack>
      ) : history.isError ? (
        <LoadError title={HISTORY_FAILED} onRetry={() => void history.refetch()} />
      ) : history.data.events.length === 0 ? (
        <Text c="dimmed">No access changes yet.</Text>
      ) : (
        <Timeline bulletSize={24} lineWidth={2}>
          {history.data.events.map((event) => {
            const { label, color, icon: Icon } = ACTIONS[event.action];
            return (
              <Timeline.Item
                key={event._id}
                title={label}
                color={color}
                bullet={<Icon size={14} aria-hidden="true" />}
              >
                <EventItem event={event} />
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Drawer>
  );
}
