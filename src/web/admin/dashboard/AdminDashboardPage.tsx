import { Box, Button, SimpleGrid, Stack, Title, useMatches } from '@mantine/core';
import {
  IconCloudUpload,
  IconEdit,
  IconKey,
  IconMovie,
  IconSquarePlus,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AdminCourse } from '../../../contract/courses';
import { adminToasts } from '../../../contract/messages';
import { useAdminCourses } from '../../api/admin';
import { useAdminCheck } from '../../api/session';
import { linksFor } from '../admin-links';
import { useBackupSummary } from '../../api/backups';
import { BackupFailureNotice } from '../backups/BackupFailureNotice';
import { CardSkeleton } from '../../ui/CardSkeleton';
import { Empty } from '../ui/Empty';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import { CourseCards } from './CourseCards';
import { CoursesTable } from './CoursesTable';
import { PlaybackHealthPanel } from './PlaybackHealthPanel';

/** The six actions of SPEC.md section 2, then student management (beyond the spec). */
const ACTIONS = [
  { to: '/admincourse', label: 'Create Course', icon: IconSquarePlus },
  { to: '/adminvideo', label: 'Upload Video', icon: IconCloudUpload },
  { to: '/editcoursedetails', label: 'Edit Course Details', icon: IconEdit },
  { to: '/editvideodetails', label: 'Edit Video Details', icon: IconMovie },
  { to: '/editcourse', label: 'Edit Course Access', icon: IconKey },
  { to: '/editvideo', label: 'Edit Video Access', icon: IconUsersGroup },
  { to: '/adminstudents', label: 'Manage Students', icon: IconUsers },
];

/** /admindashboard: where every admin task starts, and the Courses Overview. */
export default function AdminDashboardPage() {
  const courses = useAdminCourses('dashboard');
  // An instructor: their courses, the tasks they may do, no backups or playback health (admins').
  const role = useAdminCheck().data?.role;
  const admin = role === 'admin';
  // Only the warning is shown here; a failed load leaves the dashboard as it was.
  const backups = useBackupSummary({ enabled: admin });
  const layout = useMatches<'cards' | 'table'>({ base: 'cards', md: 'table' });

  const loading =
    layout === 'table' ? (
      <TableSkeleton rows={4} label="Loading courses" />
    ) : (
      <Stack aria-busy="true" aria-label="Loading courses">
        <CardSkeleton layout="list" />
        <CardSkeleton layout="list" />
        <CardSkeleton layout="list" />
      </Stack>
    );
  const overview = (list: AdminCourse[]) =>
    list.length === 0 ? (
      <Empty title="No courses available." description="Create the first course of a batch to get started.">
        <Button component={Link} to="/admincourse" replace leftSection={<IconSquarePlus size={16} />}>
          Create Course
        </Button>
      </Empty>
    ) : layout === 'table' ? (
      <CoursesTable courses={list} />
    ) : (
      <CourseCards courses={list} />
    );

  return (
    <Stack gap="xl">
      <div>
        <PageHeader
          title={role === 'instructor' ? 'Instructor Dashboard' : 'Admin Dashboard'}
          description={
            role === 'instructor'
              ? 'The courses you teach: their videos, analytics and questions.'
              : 'Courses, videos and student access in one place.'
          }
        />
        {backups.data?.lastFailure && !backups.data.active && (
          <Box mb="lg">
            <BackupFailureNotice run={backups.data.lastFailure} link />
          </Box>
        )}
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" component="nav" aria-label="Admin tasks">
          {linksFor(role, ACTIONS).map(({ to, label, icon: Icon }) => (
            <Button
              key={to}
              component={Link}
              to={to}
              replace
              variant="default"
              size="md"
              justify="flex-start"
              leftSection={<Icon size={18} aria-hidden="true" />}
              styles={{ label: { whiteSpace: 'normal', textAlign: 'left', lineHeight: 1.2 } }}
              h="auto"
              py="sm"
            >
              {label}
            </Button>
          ))}
        </SimpleGrid>
      </div>
      <section aria-labelledby="courses-overview">
        <Title order={2} size="h3" id="courses-overview" mb="sm">
          Courses Overview
        </Title>
        <Loaded query={courses} failure={adminToasts.overviewFailed} loading={loading}>
          {overview}
        </Loaded>
      </section>
      {admin && <PlaybackHealthPanel />}
    </Stack>
  );
}
