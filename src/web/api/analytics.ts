import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CourseGridQuery } from '../../contract/analytics';
import { calling } from './client';

/** Learning analytics (base /api/admin/analytics): the one query-key factory, loads and CSV download links. */
const BASE = '/api/admin/analytics';

export type CourseGridOptions = Omit<CourseGridQuery, 'format'>;

export const analyticsKeys = {
  all: ['admin', 'analytics'] as const,
  video: (videoId: string) => ['admin', 'analytics', 'video', videoId] as const,
  course: (courseId: string, options: CourseGridOptions) =>
    ['admin', 'analytics', 'course', courseId, options] as const,
  student: (studentId: string) => ['admin', 'analytics', 'student', studentId] as const,
};

const search = (options: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(options).map(([k, v]) => [k, String(v)])).toString();

export const analyticsCsv = {
  video: (videoId: string) => `${BASE}/videos/${encodeURIComponent(videoId)}?format=csv`,
  course: (courseId: string, options: Pick<CourseGridQuery, 'sort' | 'order' | 'filter'>) =>
    `${BASE}/courses/${encodeURIComponent(courseId)}?${search({ ...options, format: 'csv' })}`,
  student: (studentId: string) => `${BASE}/students/${encodeURIComponent(studentId)}?format=csv`,
};

/** The retention curve and its summary. */
export function useVideoAnalytics(videoId: string) {
  return useQuery({
    queryKey: analyticsKeys.video(videoId),
    queryFn: calling('GET /api/admin/analytics/videos/:videoId', { params: { videoId } }),
    retry: 1,
  });
}

/** One page of the students x videos grid (the last page stays on screen while the next loads). */
export function useCourseAnalytics(courseId: string, options: CourseGridOptions) {
  return useQuery({
    queryKey: analyticsKeys.course(courseId, options),
    queryFn: calling('GET /api/admin/analytics/courses/:courseId', { params: { courseId }, query: options }),
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

/** A student's courses, videos and 30 days of watch time. */
export function useStudentAnalytics(studentId: string) {
  return useQuery({
    queryKey: analyticsKeys.student(studentId),
    queryFn: calling('GET /api/admin/analytics/students/:studentId', { params: { studentId } }),
    retry: 1,
  });
}
