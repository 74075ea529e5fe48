import { Alert, Button, SimpleGrid, Stack, Text, Title, useMatches } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { StudentCourse } from '../../contract/courses';
import { studentToasts } from '../../contract/messages';
import { useSchoolTimeZone } from '../api/session';
import { useCourses } from '../api/student';
import { SearchBox } from '../search/SearchBox';
import { CardSkeleton } from '../ui/CardSkeleton';
import { toastOnce } from '../ui/toast';
import { CertificatesList } from './CertificatesList';
import { CourseCard } from './CourseCard';
import { DashboardLiveNow } from './DashboardLiveNow';
import { isCourseActive } from './course-access';

// Its chunk (the modal and its scroll lock) loads the first time an inactive course is opened.
const AccessExpiredModal = lazy(() =>
  import('./AccessExpiredModal').then((m) => ({ default: m.AccessExpiredModal })),
);

/** /dashboard: the student's courses, active ones first. */
export default function DashboardPage() {
  const courses = useCourses();
  const timeZone = useSchoolTimeZone();
  const layout = useMatches<'grid' | 'list'>({ base: 'list', sm: 'grid' });
  const [inactive, setInactiveCourse] = useState<StudentCourse | null>(null);
  const [modalWanted, setModalWanted] = useState(false);
  const setInactive = (course: StudentCourse | null) => {
    if (course) setModalWanted(true);
    setInactiveCourse(course);
  };

  useEffect(() => {
    if (courses.isError) toastOnce('error', studentToasts.coursesFailed);
  }, [courses.isError]);

  const list = [...(courses.data ?? [])].sort(
    (a, b) => Number(isCourseActive(b, timeZone)) - Number(isCourseActive(a, timeZone)),
  );
  const cols = layout === 'grid' ? { base: 1, sm: 2, lg: 3 } : 1;

  let body;
  if (courses.isPending) {
    body = (
      <SimpleGrid cols={cols} spacing="lg" aria-busy="true" aria-label="Loading courses">
        <CardSkeleton layout={layout} />
        <CardSkeleton layout={layout} />
      </SimpleGrid>
    );
  } else if (courses.isError) {
    body = (
      <Alert color="red" title={studentToasts.coursesFailed} variant="light">
        <Button size="xs" color="red" variant="outline" mt="xs" onClick={() => void courses.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  } else if (list.length === 0) {
    body = (
      <Text c="dimmed" py="xl" ta="center">
        No courses enrolled yet.
      </Text>
    );
  } else {
    body = (
      <SimpleGrid cols={cols} spacing={layout === 'grid' ? 'lg' : 'sm'}>
        {list.map((course) => (
          <CourseCard key={course.courseId} course={course} layout={layout} onInactive={setInactive} />
        ))}
      </SimpleGrid>
    );
  }

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Courses</Title>
        <Text c="dimmed">Continue your learning journey.</Text>
      </div>
      <SearchBox />
      <DashboardLiveNow courses={list.filter((c) => isCourseActive(c, timeZone))} />
      {body}
      <CertificatesList />
      {modalWanted && (
        <Suspense fallback={null}>
          <AccessExpiredModal course={inactive} onClose={() => setInactive(null)} />
        </Suspense>
      )}
    </Stack>
  );
}
