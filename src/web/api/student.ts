import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StudentVideo } from '../../contract/media';
import type { ProgressBody, VideoProgress } from '../../contract/progress';
import { call, calling } from './client';
import { PREFETCHED_FRESH_MS } from './session';

/** Query keys of the student portal. */
export const studentKeys = {
  courses: ['student', 'courses'] as const,
  videos: (courseId: string) => ['student', 'videos', courseId] as const,
  rollno: (courseId: string) => ['student', 'rollno', courseId] as const,
  liveClasses: (courseId: string) => ['student', 'live-classes', courseId] as const,
};

/** The student portal's queries, shared by the pages' hooks and app/prefetch.ts (which starts them while a page's code loads). */
export const studentQueries = {
  courses: () =>
    queryOptions({
      queryKey: studentKeys.courses,
      queryFn: calling('GET /api/courses', {}, (r) => r.courses),
      retry: 1,
      staleTime: PREFETCHED_FRESH_MS,
    }),
  videos: (courseId: string) =>
    queryOptions({
      queryKey: studentKeys.videos(courseId),
      queryFn: calling('POST /api/videos', { body: { courseId } }, (r) => r.videos ?? []),
      retry: false,
      staleTime: PREFETCHED_FRESH_MS,
    }),
  rollno: (courseId: string) =>
    queryOptions({
      queryKey: studentKeys.rollno(courseId),
      queryFn: calling('POST /api/rollno', { body: { courseId } }, (r) => r.rollno),
      retry: false,
      staleTime: Infinity,
    }),
};

/** GET /api/courses: every enrolled course, expired and revoked ones included. */
export function useCourses() {
  return useQuery(studentQueries.courses());
}

/** POST /api/videos: the course's videos this student may watch, in course order, with their progress. */
export function useCourseVideos(courseId: string) {
  return useQuery(studentQueries.videos(courseId));
}

/** GET /api/courses/:courseId/live-classes: the course's live classes, asked again every 30 s (one may go live). */
/** A course's live classes, asked again every 30 s (a class turns live on its own). */
export const liveClassesQuery = (courseId: string) =>
  queryOptions({
    queryKey: studentKeys.liveClasses(courseId),
    queryFn: calling('GET /api/courses/:courseId/live-classes', { params: { courseId } }, (r) => r),
    retry: 1,
    refetchInterval: 30_000,
  });

export function useLiveClasses(courseId: string) {
  return useQuery(liveClassesQuery(courseId));
}

/** Where a class's .ics downloads (the session cookie goes with the link). */
export const calendarUrl = (classId: string) =>
  `/api/live-classes/${encodeURIComponent(classId)}/calendar.ics`;

/** POST /api/rollno: the roll number the watermark shows. */
export function useRollno(courseId: string) {
  return useQuery(studentQueries.rollno(courseId));
}

/** POST /api/progress; `keepalive` for the save made while the page goes away. */
export function saveProgress(body: ProgressBody, keepalive = false): Promise<VideoProgress> {
  return call('POST /api/progress', { body, keepalive }).then((r) => r.progress);
}

/** Writes a saved progress into the cached video list, so the playlist ticks update without a refetch. */
export function useProgressCache(courseId: string) {
  const queryClient = useQueryClient();
  return (videoId: string, progress: VideoProgress) => {
    queryClient.setQueryData<StudentVideo[]>(studentKeys.videos(courseId), (videos) =>
      videos?.map((v) => (v._id === videoId ? { ...v, progress } : v)),
    );
    if (progress.completed) void queryClient.invalidateQueries({ queryKey: studentKeys.courses });
  };
}

/** POST /api/otp/send (first login, signed in) or POST /api/password/forgot (by username). */
export function requestCode(username?: string) {
  return username ? call('POST /api/password/forgot', { body: { username } }) : call('POST /api/otp/send');
}

/** POST /api/password/reset: with the first-login session, or by username (forgot password). */
export function resetPassword(body: { otp: string; newpassword: string; username?: string }) {
  return call('POST /api/password/reset', { body });
}

/** POST /api/signin. */
export function signIn(body: { username: string; password: string }) {
  return call('POST /api/signin', { body });
}

/** POST /api/logout. */
export function signOut() {
  return call('POST /api/logout');
}
