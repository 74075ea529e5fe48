import { Button, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChartAreaLine, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AdminCourse } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { useAdminCourses } from '../../api/admin';
import { Empty } from '../ui/Empty';
import { LoadedList } from '../ui/LoadedList';
import { PageHeader } from '../ui/PageHeader';
import { AnalyticsLink } from './AnalyticsLink';

/** /adminanalytics: where the questions start: a course (who is behind, which video loses people) or a student. */
export default function AnalyticsHomePage() {
  const courses = useAdminCourses('dashboard');
  return (
    <>
      <PageHeader
        title="Learning analytics"
        description="What students actually watched: pick a course to see who is behind and where each video loses people."
        actions={
          <Button
            component={Link}
            to="/adminstudents"
            replace
            variant="default"
            leftSection={<IconUsers size={16} aria-hidden="true" />}
          >
            Find a student
          </Button>
        }
      />
      <LoadedList
        query={courses}
        failure={adminToasts.overviewFailed}
        loading="Loading courses"
        empty={
          <Empty title="No courses available." description="Create a course and enrol students first." />
        }
      >
        {(list) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {list.map((course) => (
              <CourseLink key={course._id} course={course} />
            ))}
          </SimpleGrid>
        )}
      </LoadedList>
    </>
  );
}

function CourseLink({ course }: { course: AdminCourse }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap={6}>
        <AnalyticsLink subject="course" id={course._id} fw={700}>
          <IconChartAreaLine size={16} aria-hidden="true" style={{ verticalAlign: 'text-bottom' }} />{' '}
          {course.name}
        </AnalyticsLink>
        <Text size="xs" c="dimmed">
          Batch {course.batch} · {course.coursecode} · {course.totalvideos} videos · {course.totalstudents}{' '}
          students
        </Text>
      </Stack>
    </Paper>
  );
}
