import { useMemo } from 'react';
import type { SearchHit } from '../../../contract/search';
import { useAdminCourses } from '../../api/admin';
import { SearchBox } from '../../search/SearchBox';
import { analyticsPath } from '../analytics/AnalyticsLink';
import { PageHeader } from '../ui/PageHeader';

/**
 * Where an admin's hit opens: the video's analytics page (the back office has no player of its
 * own); the link's words give the hit's time.
 */
export const adminHitLink = (hit: Pick<SearchHit, 'videoId'>) => analyticsPath('video', hit.videoId);

/** /adminsearch: what was said or on screen, in every course (docs/SEARCH.md "Screens"). */
export default function AdminSearchPage() {
  // Course names only label the results: while they load or when they fail, hits show without them.
  const courses = useAdminCourses('list');
  const names = useMemo(
    () => new Map((courses.data ?? []).map((c) => [c._id, `${c.name} (Batch ${c.batch})`])),
    [courses.data],
  );
  return (
    <>
      <PageHeader
        title="Search lectures"
        description="What was said, shown on screen or captioned, in every course. A result opens the video's analytics."
      />
      <SearchBox
        mode="admin"
        courseName={(courseId) => (courseId === null ? 'No course' : names.get(courseId))}
        adminLink={adminHitLink}
      />
    </>
  );
}
