import { useQuery } from '@tanstack/react-query';
import type { AdminVideo } from '../../contract/videos';
import { call, calling, type CallInput } from './client';

/** Query keys of the admin API (base /api/admin, SPEC.md section 7): courses, videos, access. */
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
  captions: (videoId: string) => ['admin', 'captions', videoId] as const,
  /** Under the video's captions: a caption write refreshes the draft too. */
  speechDraft: (videoId: string) => ['admin', 'captions', videoId, 'speech-draft'] as const,
  searchIndex: (videoId: string) => ['admin', 'search-index', videoId] as const,
  playbackHealth: ['admin', 'playback-health'] as const,
};

/** The dashboard's playback health panel (GET /api/admin/playback-health), refreshed every minute while shown. */
export function usePlaybackHealth() {
  return useQuery({
    queryKey: adminKeys.playbackHealth,
    queryFn: calling('GET /api/admin/playback-health', {}),
    refetchInterval: 60_000,
  });
}

/** A video's caption tracks (GET /api/admin/videos/:videoId/captions), while `enabled`. */
export function useCaptionTracks(videoId: string, enabled = true) {
  return useQuery({
    queryKey: adminKeys.captions(videoId),
    queryFn: calling('GET /api/admin/videos/:videoId/captions', { params: { videoId } }, (r) => r.captions),
    enabled,
  });
}

/** The video's draft caption track from machine speech (its cue count; null when it has none). */
export function useSpeechDraft(videoId: string) {
  return useQuery({
    queryKey: adminKeys.speechDraft(videoId),
    queryFn: calling(
      'GET /api/admin/videos/:videoId/captions/speech-draft',
      { params: { videoId } },
      (r) => r.draft,
    ),
  });
}

/** The draft from speech as a WebVTT download (a plain link: the session cookie goes with it). */
export const speechDraftFileUrl = (videoId: string) =>
  `/api/admin/videos/${encodeURIComponent(videoId)}/captions/speech-draft?format=vtt`;

/** How often a video's search index state is read again while a source is queued or running. */
export const INDEX_POLL_MS = 2_000;
/** ...and, more slowly, while a source has no state yet (not queued so far). */
export const INDEX_WAIT_POLL_MS = 5_000;

/** A video's search index, source by source (GET /api/admin/videos/:videoId/index): polled until every source has settled. */
export function useVideoIndex(videoId: string) {
  return useQuery({
    queryKey: adminKeys.searchIndex(videoId),
    queryFn: ({ signal }) => call('GET /api/admin/videos/:videoId/index', { params: { videoId }, signal }),
    refetchInterval: (query) => {
      const sources = query.state.data?.sources ?? [];
      if (sources.some((s) => s.status === 'queued' || s.status === 'running')) return INDEX_POLL_MS;
      // A source with no state yet: the runner's check queues a packaged video within 30 s.
      return sources.some((s) => s.updatedAt === null) ? INDEX_WAIT_POLL_MS : false;
    },
  });
}

/** The spec names three loads of the same course list; each screen uses the one the spec gives it. */
const COURSE_ROUTES = {
  dashboard: 'GET /api/admin/course/dashboard',
  list: 'GET /api/admin/course/list',
  video: 'GET /api/admin/video/courses',
} as const;
type CourseSource = keyof typeof COURSE_ROUTES;

/** Every course with its counts, from the endpoint the screen's spec names. */
export function useAdminCourses(source: CourseSource) {
  return useQuery({
    queryKey: adminKeys.courseList(source),
    queryFn: async ({ signal }) => {
      const body = await call(COURSE_ROUTES[source], { signal });
      return 'courses' in body ? body.courses : body.course;
    },
  });
}

const VIDEO_ROUTES = {
  edit: 'GET /api/admin/video/editlist',
  access: 'GET /api/admin/getvideolist',
} as const;
type VideoSource = keyof typeof VIDEO_ROUTES;

/** Every video (GET /video/editlist or /getvideolist); polled while any is still being packaged. */
export function useAdminVideos(
  source: VideoSource,
  options: { pollWhileProcessing?: boolean; enabled?: boolean } = {},
) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: adminKeys.videoList(source),
    queryFn: ({ signal }) => call(VIDEO_ROUTES[source], { signal }).then((r) => r.videos),
    refetchInterval: options.pollWhileProcessing
      ? (query) => (query.state.data?.some((v) => v.status === 'processing') ? 2_000 : false)
      : false,
  });
}

/** GET /course/accesslist: every course's students, or one course's. */
export function useAccessList(courseId?: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: adminKeys.accessList(courseId),
    queryFn: calling('GET /api/admin/course/accesslist', { query: { courseId } }, (r) => r.courseAccessList),
    enabled,
  });
}

/** POST /students/dropdown: the students enrolled in a course (none until a course is chosen). */
export function useCourseStudents(courseId: string | null) {
  return useQuery({
    queryKey: adminKeys.dropdown(courseId ?? ''),
    queryFn: calling(
      'POST /api/admin/students/dropdown',
      { body: { courseid: courseId! } },
      (r) => r.students,
    ),
    enabled: Boolean(courseId),
  });
}

/** POST /students/access: loaded only while `enabled` (a video's panel is open). */
export function useVideoAccess(videoId: string, courseId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.videoAccess(videoId),
    queryFn: calling('POST /api/admin/students/access', { body: { videoId, courseId: courseId! } }),
    enabled: enabled && Boolean(courseId),
  });
}

type Body<K extends Parameters<typeof call>[0]> = CallInput<K> extends { body: infer B } ? B : never;

export const adminApi = {
  login: (body: Body<'POST /api/admin/login'>) => call('POST /api/admin/login', { body }),
  logout: () => call('POST /api/admin/logout'),
  /** The mailed set-up link: a new password, then the account's next step. */
  setup: (body: Body<'POST /api/admin/setup'>) => call('POST /api/admin/setup', { body }),
  /** The sign-in's second step: a TOTP code or a recovery code. */
  loginCode: (code: string) => call('POST /api/admin/login/totp', { body: { code } }),
  startEnrolment: () => call('POST /api/admin/mfa/enrolment'),
  confirmEnrolment: (code: string) => call('POST /api/admin/mfa/enrol', { body: { code } }),
  verifyFactor: (code: string) => call('POST /api/admin/mfa/verify', { body: { code } }),
  /** Passkeys (WebAuthn): the ceremonies' options and results; login/passkey-flow.ts runs the browser's part. */
  passkeyLoginOptions: () => call('POST /api/admin/login/passkey/options'),
  passkeyLogin: (body: Body<'POST /api/admin/login/passkey'>) =>
    call('POST /api/admin/login/passkey', { body }),
  passkeyRegistrationOptions: () => call('POST /api/admin/passkeys/registration'),
  addPasskey: (body: Body<'POST /api/admin/passkeys'>) => call('POST /api/admin/passkeys', { body }),
  listPasskeys: () => call('GET /api/admin/passkeys'),
  removePasskey: (passkeyId: string) =>
    call('DELETE /api/admin/passkeys/:passkeyId', { params: { passkeyId } }),
  createCourse: (body: Body<'POST /api/admin/course/create'>) =>
    call('POST /api/admin/course/create', { body }),
  updateCourse: (body: Body<'POST /api/admin/course/update'>) =>
    call('POST /api/admin/course/update', { body }),
  grantCourseAccess: (body: Body<'POST /api/admin/course/grantaccess'>) =>
    call('POST /api/admin/course/grantaccess', { body }),
  revokeCourseAccess: (body: Body<'POST /api/admin/course/revokeaccess'>) =>
    call('POST /api/admin/course/revokeaccess', { body }),
  saveVideo: (body: Body<'POST /api/admin/video/upload'>) => call('POST /api/admin/video/upload', { body }),
  updateVideo: (body: Body<'POST /api/admin/video/update'>) => call('POST /api/admin/video/update', { body }),
  grantVideo: (videoId: string, studentIds: string[]) =>
    call('POST /api/admin/video/grant', { body: { videoId, studentIds } }),
  revokeVideo: (videoId: string, studentIds: string[]) =>
    call('POST /api/admin/video/revoke', { body: { videoId, studentIds } }),
  /** Attaches an .srt or .vtt file as the video's captions in `language` (replacing that language's). */
  uploadCaptions: ({
    videoId,
    language,
    label,
    file,
  }: {
    videoId: string;
    language: string;
    label: string;
    file: File;
  }) => {
    const form = new FormData();
    form.set('language', language);
    form.set('label', label);
    form.set('file', file);
    return call('POST /api/admin/videos/:videoId/captions', { params: { videoId }, form });
  },
  /** Starts the video's search index over (a job; 409 while one is queued or running). */
  reindexVideo: (videoId: string) => call('POST /api/admin/videos/:videoId/index', { params: { videoId } }),
  /** Saves the draft from speech as the video's captions in `language` (replacing that language's). */
  publishSpeechDraft: ({ videoId, language, label }: { videoId: string; language: string; label?: string }) =>
    call('POST /api/admin/videos/:videoId/captions/speech-draft/publish', {
      params: { videoId },
      body: { language, ...(label ? { label } : {}) },
    }),
  deleteCaptions: ({ videoId, language }: { videoId: string; language: string }) =>
    call('DELETE /api/admin/videos/:videoId/captions/:language', { params: { videoId, language } }),
  /** The streamer's files first (SPEC.md section 7), then the rows; files already gone are no obstacle. */
  deleteVideo: async (video: Pick<AdminVideo, '_id' | 'deleteUrl'>) => {
    await call('DELETE /stream/videos/:id', { url: video.deleteUrl }).catch((error: unknown) => {
      if ((error as { status?: number }).status !== 404) throw error;
    });
    return call('POST /api/admin/delete/video', { body: { videoId: video._id } });
  },
};
