import { useQuery } from '@tanstack/react-query';
import type {
  AdminCourse,
  CourseAccessListEntry,
  CourseAccessResult,
  CourseCreateBody,
  CourseUpdateBody,
} from '../../contract/courses';
import type { AdminVideo, DropdownStudent } from '../../contract/videos';
import { api } from './client';

/** The admin API (base /api/admin, SPEC.md section 7): query keys, loads and writes. */
const BASE = '/api/admin';

export const adminKeys = {
  all: ['admin'] as const,
  courses: ['admin', 'courses'] as const,
  courseList: (source: CourseSource) => ['admin', 'courses', source] as const,
  videos: ['admin', 'videos'] as const,
  videoList: (source: VideoSource) => ['admin', 'videos', source] as const,
  accessLists: ['admin', 'access-list'] as const,
  accessList: (courseId?: string) => ['admin', 'access-list', courseId ?? 'all'] as const,
  dropdown: (courseId: string) => ['admin', 'dropdown', courseId] as const,
  videoAccess: (videoId: string) => ['admin', 'video-access', videoId] as const,
};

/** The spec names three loads of the same course list; each screen uses the one the spec gives it. */
type CourseSource = 'dashboard' | 'list' | 'video';
const COURSE_PATHS: Record<CourseSource, string> = {
  dashboard: '/course/dashboard',
  list: '/course/list',
  video: '/video/courses',
};

export interface Message {
  message: string;
}

/** Every course with its counts, from the endpoint the screen's spec names. */
export function useAdminCourses(source: CourseSource) {
  return useQuery({
    queryKey: adminKeys.courseList(source),
    queryFn: async ({ signal }) => {
      const body = await api.get<{ courses?: AdminCourse[]; course?: AdminCourse[] }>(
        BASE + COURSE_PATHS[source],
        signal,
      );
      return body.courses ?? body.course ?? [];
    },
  });
}

type VideoSource = 'edit' | 'access';

/** Every video (GET /video/editlist or /getvideolist); polled while any is still being packaged. */
export function useAdminVideos(
  source: VideoSource,
  options: { pollWhileProcessing?: boolean; enabled?: boolean } = {},
) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: adminKeys.videoList(source),
    queryFn: ({ signal }) =>
      api
        .get<{ videos: AdminVideo[] }>(
          `${BASE}${source === 'edit' ? '/video/editlist' : '/getvideolist'}`,
          signal,
        )
        .then((r) => r.videos),
    refetchInterval: options.pollWhileProcessing
      ? (query) => (query.state.data?.some((v) => v.status === 'processing') ? 2_000 : false)
      : false,
  });
}

/** GET /course/accesslist: every course's students, or one course's. */
export function useAccessList(courseId?: string) {
  return useQuery({
    queryKey: adminKeys.accessList(courseId),
    queryFn: ({ signal }) =>
      api
        .get<{
          courseAccessList: CourseAccessListEntry[];
        }>(`${BASE}/course/accesslist${courseId ? `?courseId=${encodeURIComponent(courseId)}` : ''}`, signal)
        .then((r) => r.courseAccessList),
  });
}

/** POST /students/dropdown: the students enrolled in a course (none until a course is chosen). */
export function useCourseStudents(courseId: string | null) {
  return useQuery({
    queryKey: adminKeys.dropdown(courseId ?? ''),
    queryFn: ({ signal }) =>
      api
        .post<{ students: DropdownStudent[] }>(`${BASE}/students/dropdown`, { courseid: courseId }, signal)
        .then((r) => r.students),
    enabled: Boolean(courseId),
  });
}

export interface VideoAccessSplit {
  studentsWithAccess: DropdownStudent[];
  studentsWithoutAccess: DropdownStudent[];
}

/** POST /students/access: loaded only while `enabled` (a video's panel is open). */
export function useVideoAccess(videoId: string, courseId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.videoAccess(videoId),
    queryFn: ({ signal }) =>
      api.post<VideoAccessSplit>(`${BASE}/students/access`, { videoId, courseId }, signal),
    enabled: enabled && Boolean(courseId),
  });
}

export const adminApi = {
  login: (body: { username: string; password: string }) => api.post<Message>(`${BASE}/login`, body),
  logout: () => api.post<Message>(`${BASE}/logout`),
  createCourse: (body: CourseCreateBody) =>
    api.post<Message & { course: AdminCourse }>(`${BASE}/course/create`, body),
  updateCourse: (body: CourseUpdateBody) =>
    api.post<Message & { course: AdminCourse }>(`${BASE}/course/update`, body),
  grantCourseAccess: (body: { courseId: string; studentId: string; days: number }) =>
    api.post<Message & { access: CourseAccessResult }>(`${BASE}/course/grantaccess`, body),
  revokeCourseAccess: (body: { courseId: string; studentId: string; accessrevokedreason: string }) =>
    api.post<Message & { access: CourseAccessResult }>(`${BASE}/course/revokeaccess`, body),
  saveVideo: (body: {
    title: string;
    description: string;
    thumbnail: string | null;
    url: string;
    duration: string;
    rollnos: string[];
    courses: string | null;
  }) => api.post<Message & { video: AdminVideo }>(`${BASE}/video/upload`, body),
  updateVideo: (body: {
    videoId: string;
    title: string;
    description: string;
    thumbnail: string | null;
    course: string | null;
  }) => api.post<Message & { video: AdminVideo }>(`${BASE}/video/update`, body),
  grantVideo: (videoId: string, studentIds: string[]) =>
    api.post<Message & { granted: number }>(`${BASE}/video/grant`, { videoId, studentIds }),
  revokeVideo: (videoId: string, studentIds: string[]) =>
    api.post<Message & { revoked: number }>(`${BASE}/video/revoke`, { videoId, studentIds }),
  /** The streamer's files first (SPEC.md section 7), then the rows; files already gone are no obstacle. */
  deleteVideo: async (video: Pick<AdminVideo, '_id' | 'deleteUrl'>) => {
    await api.delete<Message>(video.deleteUrl).catch((error: unknown) => {
      if ((error as { status?: number }).status !== 404) throw error;
    });
    return api.post<Message>(`${BASE}/delete/video`, { videoId: video._id });
  },
};
