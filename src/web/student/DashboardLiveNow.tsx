import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { StudentCourse } from '../../contract/courses';
import { liveClassesQuery } from '../api/student';

/**
 * On the dashboard: the classes live now in the student's open courses, each with Watch live into
 * the class's lecture (`/course/{courseId}?video={videoId}`). Asked again every 30 s; nothing shows
 * while none is live (nor when a course's list cannot be had: the course page says so).
 */
export function DashboardLiveNow({ courses }: { courses: StudentCourse[] }) {
  const lists = useQueries({ queries: courses.map((c) => liveClassesQuery(c.courseId)) });
  const live = courses.flatMap((course, i) =>
    (lists[i]?.data ?? []).filter((c) => c.status === 'live').map((c) => ({ course, live: c })),
  );
  if (live.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label="Live now">
      {live.map(({ course, live: c }) => (
        <Paper key={c._id} withBorder p="sm" radius="md" aria-label={`Live now: ${c.title}`}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <Badge color="red" variant="filled" leftSection={<IconBroadcast size={12} aria-hidden />}>
                Live now
              </Badge>
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm" truncate>
                  {c.title}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {course.name}
                </Text>
              </div>
            </Group>
            <Button
              size="xs"
              color="red"
              component={Link}
              to={`/course/${course.courseId}?video=${c.videoId}`}
              aria-label={`Watch live: ${c.title}`}
            >
              Watch live
            </Button>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
