import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useLiveClasses } from '../../api/live';
import { formatDateTime } from '../ui/format';
import { StatusBadge } from './StatusBadge';

/**
 * In a course's analytics: its live classes that have been streamed, each linking to its page
 * with the attendance (joined, minutes live, minutes of the recording) and its CSV. Nothing when the
 * course has none.
 */
export function CourseLiveAttendance({ courseId }: { courseId: string }) {
  const classes = useLiveClasses();
  const streamed = (classes.data ?? [])
    .filter((c) => c.courseId === courseId && c.status !== 'scheduled')
    .sort((a, b) => b.startsAt.localeCompare(a.startsAt));
  if (streamed.length === 0) return null;
  return (
    <Stack gap={6} component="section" aria-labelledby="course-live-attendance">
      <Title order={2} size="h4" id="course-live-attendance">
        Live class attendance
      </Title>
      <List spacing={4} listStyleType="none" p={0}>
        {streamed.map((c) => (
          <List.Item key={c._id}>
            <Text size="sm" component="span">
              <Anchor component={Link} to={`/adminlive/${c._id}`}>
                {c.title}
              </Anchor>{' '}
              · {formatDateTime(c.startsAt)} <StatusBadge status={c.status} />
            </Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
