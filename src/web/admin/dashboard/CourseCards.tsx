import { Card, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconUsers, IconVideo } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AdminCourse } from '../../../contract/courses';
import { formatDMY } from '../ui/format';
import { Thumb } from '../ui/Thumb';
import classes from './CourseCards.module.css';
import { NO_DESCRIPTION } from './CoursesTable';

/**
 * The Courses Overview on phones: one card per course, linking to /admin/course/{id} (SPEC.md
 * section 2). The link is the course's name (its accessible name starts with what is seen, as axe's
 * label-content-name-mismatch asks) and covers the whole card.
 */
export function CourseCards({ courses }: { courses: AdminCourse[] }) {
  return (
    <Stack gap="sm">
      {courses.map((course) => (
        <Card key={course._id} withBorder radius="md" padding="sm" className={classes.card}>
          <Group align="flex-start" wrap="nowrap" gap="sm">
            <Thumb src={course.thumbnail} name={course.name} width={104} />
            <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
              <Title order={3} size="h5" lineClamp={2}>
                <Link to={`/admin/course/${course._id}`} replace className={classes.link}>
                  {course.name}
                  <VisuallyHidden> (batch {course.batch})</VisuallyHidden>
                </Link>
              </Title>
              <Text size="xs" c="dimmed">
                Batch {course.batch} · {course.coursecode}
              </Text>
              <Text size="xs" c="dimmed" lineClamp={2}>
                {course.description || NO_DESCRIPTION}
              </Text>
            </Stack>
          </Group>
          <Group justify="space-between" mt="xs" gap="xs">
            <Text size="xs">
              {formatDMY(course.startdate)} – {formatDMY(course.enddate)}
            </Text>
            <Group gap="sm">
              <Group gap={4} wrap="nowrap">
                <IconVideo size={14} aria-hidden="true" />
                <Text size="xs">{course.totalvideos} videos</Text>
              </Group>
              <Group gap={4} wrap="nowrap">
                <IconUsers size={14} aria-hidden="true" />
                <Text size="xs">{course.totalstudents} students</Text>
              </Group>
            </Group>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
