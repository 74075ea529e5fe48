import { Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconCalendarPlus, IconBroadcast } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { StudentLiveClass } from '../../contract/live';
import { messageOf } from '../api/client';
import { calendarUrl, studentKeys, useLiveClasses } from '../api/student';

/** "Tue 3 Mar, 15:30" in the viewer's own time zone. */
const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));

function LiveNow({ live, onWatch }: { live: StudentLiveClass; onWatch: (videoId: string) => void }) {
  return (
    <Paper withBorder p="sm" radius="md" aria-label={`Live now: ${live.title}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="nowrap">
          <Badge color="red" variant="filled" leftSection={<IconBroadcast size={12} aria-hidden />}>
            Live now
          </Badge>
          <Text fw={600}>{live.title}</Text>
        </Group>
        <Button size="xs" color="red" onClick={() => onWatch(live.videoId)}>
          Watch live
        </Button>
      </Group>
    </Paper>
  );
}

function Upcoming({ live }: { live: StudentLiveClass }) {
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" component="li">
      <div>
        <Text fw={600} size="sm">
          {live.title}
        </Text>
        <Text size="xs" c="dimmed">
          <time dateTime={live.startsAt}>{when(live.startsAt)}</time> · {live.minutes} min
        </Text>
      </div>
      <Anchor href={calendarUrl(live._id)} download size="sm" aria-label={`Add to calendar: ${live.title}`}>
        <Group gap={4} wrap="nowrap">
          <IconCalendarPlus size={16} aria-hidden />
          Add to calendar
        </Group>
      </Anchor>
    </Group>
  );
}

/**
 * The course's live classes above its lectures: "Live now" with a button into the live lecture, and
 * the upcoming ones with "Add to calendar" (.ics). Asked again every 30 s, so a class that starts
 * shows up without a reload.
 */
export function LiveClasses({ courseId, onWatch }: { courseId: string; onWatch: (videoId: string) => void }) {
  const query = useLiveClasses(courseId);
  const queryClient = useQueryClient();
  // A class that went live has a lecture the course's list did not have yet: ask for the list again.
  const liveIds = (query.data ?? [])
    .filter((c) => c.status === 'live')
    .map((c) => c.videoId)
    .join(',');
  useEffect(() => {
    if (liveIds) void queryClient.invalidateQueries({ queryKey: studentKeys.videos(courseId) });
  }, [liveIds, courseId, queryClient]);
  if (query.isPending)
    return <Skeleton h={48} radius="md" aria-busy="true" aria-label="Loading live classes" />;
  if (query.isError)
    return (
      <Text size="sm" c="dimmed" role="status">
        {messageOf(query.error, 'Live classes could not be loaded.')}
      </Text>
    );
  const live = query.data.filter((c) => c.status === 'live');
  const upcoming = query.data.filter((c) => c.status === 'scheduled');
  if (!live.length && !upcoming.length)
    return (
      <Text size="sm" c="dimmed">
        No live classes scheduled.
      </Text>
    );
  return (
    <Stack gap="xs" component="section" aria-label="Live classes">
      {live.map((c) => (
        <LiveNow key={c._id} live={c} onWatch={onWatch} />
      ))}
      {upcoming.length > 0 && (
        <Paper withBorder p="sm" radius="md">
          <Text fw={600} size="sm" mb={6}>
            Upcoming live classes
          </Text>
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {upcoming.map((c) => (
              <Upcoming key={c._id} live={c} />
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
