import type { RouteKey } from '../../src/contract/routes';

/** What an instructor may do on a staff route: nothing, their own account's, or their courses'. */
export type InstructorRight = 'none' | 'own' | 'courses';

/*
 * Every staff route's instructor right, written out here instead of read from the route table it
 * checks: a right changed in src/contract/routes.ts fails the matrix until it is changed here too,
 * as the security decision it is (and the matrix then calls the route as that instructor).
 */

/** Admins' only: an instructor gets 403. */
const ADMINS_ONLY: RouteKey[] = [
  'POST /api/admin/course/create',
  'POST /api/admin/course/update',
  'GET /api/admin/course/accesslist',
  'POST /api/admin/course/grantaccess',
  'POST /api/admin/course/revokeaccess',
  'POST /api/admin/students/dropdown',
  'POST /api/admin/students/access',
  'POST /api/admin/video/grant',
  'POST /api/admin/video/revoke',
  'POST /api/admin/students',
  'POST /api/admin/students/import/preview',
  'POST /api/admin/students/import',
  'POST /api/admin/students/enrol',
  'POST /api/admin/students/:studentId/password',
  'GET /api/admin/students/:studentId/history',
  'GET /api/admin/instructors',
  'POST /api/admin/instructors',
  'POST /api/admin/instructors/:userId/courses',
  'DELETE /api/admin/instructors/:userId',
  'GET /api/admin/analytics/students/:studentId',
  'GET /api/admin/trace/:code',
  'POST /api/admin/trace-runs',
  'GET /api/admin/trace-runs',
  'GET /api/admin/trace-runs/:runId',
  'GET /api/admin/playback-health',
  'GET /api/admin/backups',
  'POST /api/admin/backups',
  'GET /api/admin/certificates',
  'POST /api/admin/certificates/:certificateId/revoke',
  'POST /api/admin/certificates/:certificateId/reissue',
  'GET /api/admin/backups/:runId',
];

/** The instructor's own account and sign-in: as the admin. */
const THEIR_OWN: RouteKey[] = [
  'POST /api/admin/login/totp',
  'POST /api/admin/mfa/enrolment',
  'POST /api/admin/mfa/enrol',
  'GET /api/admin/mfa',
  'POST /api/admin/mfa/verify',
  'POST /api/admin/mfa/recovery-codes',
  'POST /api/admin/password',
  'POST /api/admin/login/passkey/options',
  'POST /api/admin/login/passkey',
  'POST /api/admin/passkeys/registration',
  'POST /api/admin/passkeys',
  'GET /api/admin/passkeys',
  'DELETE /api/admin/passkeys/:passkeyId',
  'GET /api/admin/sessions',
  'POST /api/admin/sessions/end-others',
];

/** Within the instructor's courses: as the admin for their course's rows, lists filtered to them. */
const THEIR_COURSES: RouteKey[] = [
  'GET /api/admin/course/dashboard',
  'GET /api/admin/course/list',
  'GET /api/admin/video/courses',
  'GET /api/admin/video/editlist',
  'GET /api/admin/getvideolist',
  'POST /api/admin/video/upload',
  'POST /api/admin/delete/video',
  'POST /api/admin/video/update',
  'GET /api/admin/students',
  'GET /api/admin/analytics/videos/:videoId',
  'GET /api/admin/analytics/courses/:courseId',
  'GET /api/admin/videos/:videoId/captions',
  'POST /api/admin/videos/:videoId/captions',
  'DELETE /api/admin/videos/:videoId/captions/:language',
  'GET /api/admin/videos/:videoId/captions/speech-draft',
  'POST /api/admin/videos/:videoId/captions/speech-draft/publish',
  'POST /api/questions/:questionId/answers',
  'GET /api/admin/questions',
  'POST /api/admin/questions/:questionId/status',
  'GET /api/admin/videos/:videoId/learning',
  'GET /api/admin/videos/:videoId/checkpoints',
  'POST /api/admin/videos/:videoId/checkpoints',
  'PATCH /api/admin/checkpoints/:checkpointId',
  'DELETE /api/admin/checkpoints/:checkpointId',
  'GET /api/admin/search',
  'GET /api/admin/videos/:videoId/index',
  'POST /api/admin/videos/:videoId/index',
  'POST /api/admin/live-classes',
  'GET /api/admin/live-classes',
  'PATCH /api/admin/live-classes/:classId',
  'DELETE /api/admin/live-classes/:classId',
  'POST /api/admin/live-classes/:classId/key',
  'GET /api/admin/live-classes/:classId/attendance',
  'POST /stream/upload-chunk',
  'GET /stream/upload-status',
  'POST /stream/upload',
  'DELETE /stream/videos/:id',
];

export const INSTRUCTOR_RIGHTS: ReadonlyMap<string, InstructorRight> = new Map([
  ...ADMINS_ONLY.map((route) => [route, 'none'] as const),
  ...THEIR_OWN.map((route) => [route, 'own'] as const),
  ...THEIR_COURSES.map((route) => [route, 'courses'] as const),
]);

/** The right written out for `route`; a staff route missing here is an error naming it. */
export function instructorRight(route: string): InstructorRight {
  const right = INSTRUCTOR_RIGHTS.get(route);
  if (!right) throw new Error(`${route}: write its instructor right in test/security/instructor-rights.ts`);
  return right;
}

/**
 * The 'courses' routes that name a resource (route table `scope`), with the fields that name it:
 * the server checks them before the handler. Each has matrix cases on a resource of course A (its
 * instructor as the admin, the other 403) and on one that names nothing (404 for all staff).
 */
export const SCOPED_ROUTES: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map<
  string,
  Readonly<Record<string, string>>
>([
  ['POST /api/admin/video/upload', { url: 'upload', courses: 'course' }],
  ['POST /api/admin/delete/video', { videoId: 'video' }],
  ['POST /api/admin/video/update', { videoId: 'video', course: 'course' }],
  ['GET /api/admin/students', { courseId: 'course' }],
  ['GET /api/admin/analytics/videos/:videoId', { videoId: 'video' }],
  ['GET /api/admin/analytics/courses/:courseId', { courseId: 'course' }],
  ['GET /api/admin/videos/:videoId/captions', { videoId: 'video' }],
  ['POST /api/admin/videos/:videoId/captions', { videoId: 'video' }],
  ['DELETE /api/admin/videos/:videoId/captions/:language', { videoId: 'video' }],
  ['GET /api/admin/videos/:videoId/captions/speech-draft', { videoId: 'video' }],
  ['POST /api/admin/videos/:videoId/captions/speech-draft/publish', { videoId: 'video' }],
  ['POST /api/questions/:questionId/answers', { questionId: 'question' }],
  ['POST /api/admin/questions/:questionId/status', { questionId: 'question' }],
  ['GET /api/admin/videos/:videoId/learning', { videoId: 'video' }],
  ['GET /api/admin/videos/:videoId/index', { videoId: 'video' }],
  ['POST /api/admin/videos/:videoId/index', { videoId: 'video' }],
  ['DELETE /stream/videos/:id', { id: 'video' }],
  ['GET /api/admin/videos/:videoId/checkpoints', { videoId: 'video' }],
  ['POST /api/admin/videos/:videoId/checkpoints', { videoId: 'video' }],
  ['PATCH /api/admin/checkpoints/:checkpointId', { checkpointId: 'checkpoint' }],
  ['DELETE /api/admin/checkpoints/:checkpointId', { checkpointId: 'checkpoint' }],
  ['POST /api/admin/live-classes', { courseId: 'course' }],
  ['PATCH /api/admin/live-classes/:classId', { classId: 'live-class' }],
  ['DELETE /api/admin/live-classes/:classId', { classId: 'live-class' }],
  ['POST /api/admin/live-classes/:classId/key', { classId: 'live-class' }],
  ['GET /api/admin/live-classes/:classId/attendance', { classId: 'live-class' }],
]);
