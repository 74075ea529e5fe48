import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconChartAreaLine, IconCloudUpload, IconKey } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { apiAccessState, courseAccess, enrollmentOf } from '../../../contract/access-policy';
import type { AdminCourse, CourseAccessStudent } from '../../../contract/courses';
import type { AdminVideo } from '../../../contract/videos';
import { adminToasts } from '../../../contract/messages';
import { useAccessList, useAdminCourses, useAdminVideos } from '../../api/admin';
import { useSchoolTimeZone } from '../../api/session';
import { StudentCells } from '../access/AccessGroupFrame';
import { ExpiryCell } from '../access/ExpiryCell';
import { NO_DESCRIPTION } from '../dashboard/CoursesTable';
import { Empty } from '../ui/Empty';
import { formatDMY } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { useAdminCheck } from '../../api/session';
import { useStudents } from '../../api/admin-students';
import { STUDENT_PAGE_SIZE_MAX } from '../../../contract/admin-students';
import { linksFor } from '../admin-links';
import { TableSkeleton } from '../ui/TableSkeleton';
import { Thumb } from '../ui/Thumb';
import { VideoStatusBadge } from '../videos/VideoStatusBadge';
import { DataTable } from '../ui/DataTable';
import { AnalyticsLink, analyticsPath } from '../analytics/AnalyticsLink';

/** The course page's shortcuts to the screens that change it. */
const COURSE_ACTIONS = [
  { to: '/editcourse', label: 'Edit Course Access', variant: 'light', Icon: IconKey },
  { to: '/adminvideo', label: 'Upload Video', variant: 'default', Icon: IconCloudUpload },
] as const;

type AccessState = 'Active' | 'Expired' | 'Revoked';

const LABELS = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

const STATE_COLORS: Record<AccessState, string> = { Active: 'teal', Expired: 'gray', Revoked: 'red' };

/**
 * An instructor's view of the course's students (course access is the admins'): who is enrolled,
 * from the students list their courses scope (GET /api/admin/students?courseId=).
 */
function TaughtStudents({ courseId }: { courseId: string }) {
  const list = useStudents({ courseId, pageSize: STUDENT_PAGE_SIZE_MAX });
  return (
    <Loaded
      query={list}
      failure="Could not load the students."
      loading={<TableSkeleton rows={3} label="Loading students" />}
    >
      {({ students, total }) =>
        students.length === 0 ? (
          <Text c="dimmed">No students enrolled yet.</Text>
        ) : (
          <Stack gap="xs">
            <DataTable minWidth={320} columns={['Roll number', 'Name']}>
              {students.map((student) => (
                <Table.Tr key={student._id}>
                  <Table.Td>{student.rollno}</Table.Td>
                  <Table.Td>{student.name}</Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {total > students.length && (
              <Text size="xs" c="dimmed">
                {`The first ${students.length} of ${total}.`}
              </Text>
            )}
          </Stack>
        )
      }
    </Loaded>
  );
}

function Students({ courseId }: { courseId: string }) {
  const instructor = useAdminCheck().data?.role === 'instructor';
  const list = useAccessList(instructor ? undefined : courseId, { enabled: !instructor });
  if (instructor) return <TaughtStudents courseId={courseId} />;
  return (
    <Loaded
      query={list}
      failure={adminToasts.accessListFailed}
      loading={<TableSkeleton rows={3} label="Loading students" />}
    >
      {(entries) => <StudentsTable students={entries[0]?.students ?? []} />}
    </Loaded>
  );
}

function StudentsTable({ students }: { students: CourseAccessStudent[] }) {
  const timeZone = useSchoolTimeZone();
  if (students.length === 0) return <Text c="dimmed">No students enrolled yet.</Text>;
  const now = Date.now();
  const verdicts = new Map(students.map((s) => [s, courseAccess(enrollmentOf(s), now, timeZone)]));
  const stateOf = (s: CourseAccessStudent): AccessState => LABELS[apiAccessState(verdicts.get(s)!)];
  const counts = students.reduce<Record<AccessState, number>>(
    (acc, s) => ({ ...acc, [stateOf(s)]: acc[stateOf(s)] + 1 }),
    { Active: 0, Expired: 0, Revoked: 0 },
  );
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {(Object.keys(counts) as AccessState[]).map((state) => (
          <Badge key={state} color={STATE_COLORS[state]} variant="outline">
            {counts[state]} {state.toLowerCase()}
          </Badge>
        ))}
      </Group>
      <DataTable minWidth={560} columns={['Roll No', 'Name', 'Email', 'Expiration', 'Access']}>
        {students.map((s) => {
          const state = stateOf(s);
          return (
            <Table.Tr key={s.studentid}>
              <StudentCells student={s} />
              <Table.Td>
                <ExpiryCell iso={s.accessexpiration} verdict={verdicts.get(s)!} />
              </Table.Td>
              <Table.Td>
                <Badge color={STATE_COLORS[state]} variant="light" title={s.accessrevokedreason ?? undefined}>
                  {state}
                </Badge>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </DataTable>
    </Stack>
  );
}

function Videos({ courseId }: { courseId: string }) {
  const videos = useAdminVideos('edit', { pollWhileProcessing: true });
  return (
    <Loaded
      query={videos}
      failure={adminToasts.videosFailed}
      loading={<TableSkeleton rows={3} label="Loading videos" />}
    >
      {(videos) => <VideoList videos={videos.filter((v) => v.course?._id === courseId)} />}
    </Loaded>
  );
}

function VideoList({ videos: own }: { videos: AdminVideo[] }) {
  if (own.length === 0) return <Text c="dimmed">No videos in this course yet.</Text>;
  return (
    <Stack gap="xs">
      {own.map((video, i) => (
        <Paper key={video._id} withBorder radius="sm" p="xs">
          <Group wrap="nowrap" gap="sm">
            <Text size="sm" c="dimmed" w={20} ta="right">
              {i + 1}
            </Text>
            <Thumb src={video.thumbnail} name={video.title} width={72} />
            <div style={{ minWidth: 0, flex: 1 }}>
              <AnalyticsLink
                subject="video"
                id={video._id}
                size="sm"
                fw={600}
                lineClamp={1}
                title="Retention of this video"
              >
                {video.title}
              </AnalyticsLink>
              <Text size="xs" c="dimmed">
                {video.duration}
              </Text>
            </div>
            <VideoStatusBadge video={video} />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** /admin/course/{id}: one course at a glance, where the dashboard's cards lead: its videos and its students' access. */
export default function AdminCoursePage() {
  const { courseId = '' } = useParams();
  const courses = useAdminCourses('dashboard');
  return (
    <Loaded
      query={courses}
      failure={adminToasts.overviewFailed}
      loading={<TableSkeleton rows={3} label="Loading the course" />}
    >
      {(courses) => <CourseView course={courses.find((c) => c._id === courseId)} />}
    </Loaded>
  );
}

function CourseView({ course }: { course: AdminCourse | undefined }) {
  const role = useAdminCheck().data?.role;
  if (!course)
    return (
      <Empty title="Course not found." description="It may have been removed, or the link is mistyped.">
        <Button component={Link} to="/admindashboard" replace variant="default">
          Back to the dashboard
        </Button>
      </Empty>
    );

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/admindashboard" replace size="sm">
        ← Dashboard
      </Anchor>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
        <Group align="flex-start" gap="lg">
          <Thumb src={course.thumbnail} name={course.name} width={220} />
          <Stack gap={6} style={{ flex: '1 1 280px', minWidth: 0 }}>
            <Title order={1} size="h2">
              {course.name}
            </Title>
            <Text size="sm" c="dimmed">
              Batch {course.batch} · {course.coursecode} · {formatDMY(course.startdate)} –{' '}
              {formatDMY(course.enddate)}
            </Text>
            <Text size="sm" c={course.description ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-line' }}>
              {course.description || NO_DESCRIPTION}
            </Text>
            <Group gap="xs" mt="xs">
              <Button
                component={Link}
                to={analyticsPath('course', course._id)}
                replace
                size="xs"
                variant="filled"
                leftSection={<IconChartAreaLine size={14} />}
              >
                Learning analytics
              </Button>
              {linksFor(role, [...COURSE_ACTIONS]).map(({ to, label, variant, Icon }) => (
                <Button
                  key={to}
                  component={Link}
                  to={to}
                  replace
                  size="xs"
                  variant={variant}
                  leftSection={<Icon size={14} />}
                >
                  {label}
                </Button>
              ))}
            </Group>
          </Stack>
        </Group>
      </Paper>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <section aria-labelledby="course-videos">
          <Title order={2} size="h4" mb="xs" id="course-videos">
            Videos ({course.totalvideos})
          </Title>
          <Videos courseId={course._id} />
        </section>
        <section aria-labelledby="course-students" style={{ minWidth: 0 }}>
          <Title order={2} size="h4" mb="xs" id="course-students">
            Students ({course.totalstudents})
          </Title>
          <Students courseId={course._id} />
        </section>
      </SimpleGrid>
    </Stack>
  );
}
