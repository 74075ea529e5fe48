import {
  ANALYTICS_DOWNLOADS,
  AnalyticsFormatQuery,
  CourseAnalyticsResponse,
  CourseGridQuery,
  StudentAnalyticsResponse,
  VideoAnalyticsResponse,
} from './analytics';
import { z } from 'zod';
import {
  CaptionListResponse,
  CaptionParams,
  CaptionSavedResponse,
  CaptionUploadFields,
  SpeechDraftPublishBody,
  SpeechDraftQuery,
  SpeechDraftResponse,
} from './captions';
import {
  AccessHistoryResponse,
  AddStudentBody,
  AddStudentResponse,
  EnrolResult,
  EnrolStudentsBody,
  ImportPreviewResponse,
  ImportResult,
  StudentImportBody,
  StudentListQuery,
  StudentListResponse,
} from './admin-students';
import {
  AdminCheckResponse,
  AuthCheckResponse,
  ForgotPasswordBody,
  MessageResponse,
  OtpSentResponse,
  ResetPasswordBody,
  ServerTimeResponse,
  SignInBody,
} from './auth';
import {
  AdminSessionsResponse,
  AdminSignInResponse,
  AppEnrolledResponse,
  ChangePasswordBody,
  EnrolmentResponse,
  FactorCodeBody,
  MfaStatusResponse,
  PasskeyAddedResponse,
  PasskeyAssertionBody,
  PasskeyIdParam,
  PasskeyListResponse,
  PasskeyOptionsResponse,
  PasskeyRegistrationBody,
  RecoveryCodesResponse,
  StaffSetupBody,
} from './mfa';
import {
  AccessListQuery,
  AdminCourse,
  CourseAccessListEntry,
  CourseAccessResult,
  CourseCreateBody,
  CourseUpdateBody,
  GrantCourseAccessBody,
  RevokeCourseAccessBody,
  StudentCourse,
  StudentsDropdownBody,
} from './courses';
import {
  CourseIdBody,
  FinalizeUploadHeaders,
  FinalizeUploadResponse,
  RollnoResponse,
  StudentVideosResponse,
  UploadChunkFields,
  UploadOffsetResponse,
  UploadStatusQuery,
} from './media';
import { CourseIdParam, StudentIdParam, VideoIdParam } from './fields';
import { LivenessResponse, ReadinessResponse } from './health';
import {
  AdminLiveClass,
  AdminLiveClassList,
  LIVE_CALENDAR_TYPE,
  LiveClassCreateBody,
  LiveClassIdParam,
  LiveClassUpdateBody,
  StudentLiveClass,
} from './live';
import { LiveAttendanceQuery, LiveAttendanceResponse } from './live-attendance';
import { RtmpCallbackBody } from './live-ingest';
import {
  AcceptBody,
  AnswerBody,
  CourseNotesResponse,
  MeTooResponse,
  NoteBody,
  NoteIdParam,
  NoteListResponse,
  NotePatchBody,
  NoteSavedResponse,
  NOTES_DOWNLOADS,
  NotesExportQuery,
  QuestionBody,
  QuestionIdParam,
  QuestionListResponse,
  QuestionSavedResponse,
  QuestionStatusBody,
  QueueQuery,
  QueueResponse,
  UnreadResponse,
  VideoLearningCounts,
  QUESTION_FRAME_FILES,
} from './learning';
import {
  AttemptBody,
  AttemptResponse,
  CheckpointBody,
  CheckpointIdParam,
  CheckpointPatchBody,
  CompletionResponse,
  StaffCheckpointList,
  StaffCheckpointSaved,
  StudentCheckpointList,
} from './checkpoints';
import { PlaybackBody, PlaybackResponse, TraceCodeParam, TraceResponse } from './playback';
import { PlaybackHealthResponse } from './playback-health-schema';
import {
  BackupOverview,
  BackupOverviewQuery,
  BackupRunParam,
  BackupRunResponse,
  BackupStarted,
} from './backups';
import { ProgressBody, ProgressResponse } from './progress-schema';
import {
  TraceRunParam,
  TraceRunResponse,
  TraceRunStarted,
  TraceRunsResponse,
  TraceUploadFields,
} from './trace-runs';
import type { MisScopedRoutes, RouteSpec, RouteTemplate } from './route-kit';
import {
  AdminCertificatesResponse,
  CertificateIdParam,
  CertificateSavedResponse,
  PublicCertificate,
  RevokeBody,
  SerialParam,
  StatusListCredential,
  StatusListParam,
  StudentCertificatesResponse,
} from './certificates';
import {
  AssignCoursesBody,
  InstructorCreatedResponse,
  InstructorIdParam,
  InstructorListResponse,
  InstructorSavedResponse,
  NewInstructor,
} from './instructors';
import {
  AdminSearchQuery,
  FrameQuery,
  ScreenTextQuery,
  ScreenTextResponse,
  SearchQuery,
  SearchResponse,
  VideoIndexResponse,
} from './search';
import {
  DeleteVideoBody,
  DropdownStudent,
  StudentsAccessBody,
  VideoAccessBody,
  VideoAccessSplit,
  VideosResponse,
  VideoUpdateBody,
  VideoUploadBody,
  AdminVideo,
} from './videos';

const courses = z.strictObject({ courses: z.array(AdminCourse) });
const courseList = z.strictObject({ course: z.array(AdminCourse) });
const accessList = z.strictObject({ courseAccessList: z.array(CourseAccessListEntry) });
const dropdown = z.strictObject({ students: z.array(DropdownStudent) });
const granted = MessageResponse.extend({ granted: z.number().int() });
const revoked = MessageResponse.extend({ revoked: z.number().int() });
const withCourse = MessageResponse.extend({ course: AdminCourse });
const withAccess = MessageResponse.extend({ access: CourseAccessResult });
const withVideo = MessageResponse.extend({ video: AdminVideo });
const videoParam = z.object({ id: z.string() });

/**
 * Every HTTP route of Lectern: method and full path (SPEC.md section 7's names, exactly), who may
 * call it, what it reads and what it answers. The server registers its routes from this table and
 * guards them by `auth`; the web client is typed from it; the authorization matrix and the fuzzer
 * walk it. A new route is one entry here plus its handler.
 */
export const routes = {
  // Student API (SPEC.md section 7); outside opening hours 503 unless alwaysOpen.
  'GET /api/time': {
    auth: 'public',
    why: 'the opening-hours gate asks it before anyone signs in',
    alwaysOpen: true,
    response: ServerTimeResponse,
  },
  'GET /api/auth/check': {
    auth: 'public',
    why: 'answers valid:false without a session',
    alwaysOpen: true,
    response: AuthCheckResponse,
  },
  'POST /api/signin': {
    auth: 'public',
    why: 'sign-in; wrong credentials are 401 whoever asks',
    body: SignInBody,
    response: MessageResponse,
  },
  'POST /api/otp/send': { auth: 'student-reset', response: OtpSentResponse },
  'POST /api/password/reset': {
    auth: 'public',
    why: 'the first-login session, or a username and the mailed code (forgot password)',
    body: ResetPasswordBody,
    response: MessageResponse,
  },
  'POST /api/password/forgot': {
    auth: 'public',
    why: 'forgot password; the same answer whether or not the account exists',
    body: ForgotPasswordBody,
    response: MessageResponse,
  },
  'POST /api/logout': {
    auth: 'public',
    why: 'signing out without a session is harmless',
    response: MessageResponse,
  },
  'GET /api/courses': { auth: 'student', response: z.strictObject({ courses: z.array(StudentCourse) }) },
  'POST /api/videos': { auth: 'student', body: CourseIdBody, response: StudentVideosResponse },
  'POST /api/rollno': { auth: 'student', body: CourseIdBody, response: RollnoResponse },
  'POST /api/progress': {
    auth: 'student',
    // Its handler keeps the gate, open past closing for a live class under way (attendance counts to its end).
    alwaysOpen: true,
    body: ProgressBody,
    response: ProgressResponse,
  },

  // Admin API (SPEC.md section 7).
  'POST /api/admin/login': {
    auth: 'public',
    why: 'admin sign-in; wrong credentials are 401 whoever asks; a right password opens only the second step',
    body: SignInBody,
    response: AdminSignInResponse,
  },
  'POST /api/admin/setup': {
    auth: 'public',
    why: 'the one-time link mailed to the staff member is the proof (an unknown, used or expired one is 401); tries per client are limited',
    body: StaffSetupBody,
    response: AdminSignInResponse,
  },
  // The admin's second factor (mfa/): the step after the password, setting it up, proving it again.
  // Every change to the factors or the sessions wants a fresh factor (a staff member with none yet
  // sets the first one up at the `enrol` step: http/auth.ts `requireFreshFactor`).
  'POST /api/admin/login/totp': {
    auth: 'admin-signin',
    instructor: 'own',
    body: FactorCodeBody,
    response: MessageResponse,
  },
  'POST /api/admin/mfa/enrolment': {
    auth: 'admin-signin',
    instructor: 'own',
    freshFactor: true,
    response: EnrolmentResponse,
  },
  'POST /api/admin/mfa/enrol': {
    auth: 'admin-signin',
    instructor: 'own',
    freshFactor: true,
    body: FactorCodeBody,
    response: AppEnrolledResponse,
  },
  'GET /api/admin/mfa': { auth: 'admin', instructor: 'own', response: MfaStatusResponse },
  'POST /api/admin/mfa/verify': {
    auth: 'admin',
    instructor: 'own',
    body: FactorCodeBody,
    response: MessageResponse,
  },
  'POST /api/admin/mfa/recovery-codes': {
    auth: 'admin',
    instructor: 'own',
    freshFactor: true,
    response: RecoveryCodesResponse,
  },
  'POST /api/admin/password': {
    auth: 'admin',
    instructor: 'own',
    freshFactor: true,
    body: ChangePasswordBody,
    response: MessageResponse,
  },
  // Passkeys (WebAuthn, mfa/passkeys.ts): options carry a challenge bound to the session (single
  // use, minutes long). At the second step (`mfa` session) a passkey signs in like a code; from a
  // full session it proves the factor again. Adding one: the `enrol` step (instead of the app) or a
  // signed-in admin with a fresh factor.
  'POST /api/admin/login/passkey/options': {
    auth: 'admin-signin',
    instructor: 'own',
    response: PasskeyOptionsResponse,
  },
  'POST /api/admin/login/passkey': {
    auth: 'admin-signin',
    instructor: 'own',
    body: PasskeyAssertionBody,
    response: MessageResponse,
  },
  'POST /api/admin/passkeys/registration': {
    auth: 'admin-signin',
    instructor: 'own',
    freshFactor: true,
    response: PasskeyOptionsResponse,
  },
  'POST /api/admin/passkeys': {
    auth: 'admin-signin',
    instructor: 'own',
    freshFactor: true,
    body: PasskeyRegistrationBody,
    response: PasskeyAddedResponse,
    status: 201,
  },
  'GET /api/admin/passkeys': { auth: 'admin', instructor: 'own', response: PasskeyListResponse },
  'DELETE /api/admin/passkeys/:passkeyId': {
    auth: 'admin',
    instructor: 'own',
    freshFactor: true,
    params: PasskeyIdParam,
    response: MessageResponse,
  },
  'GET /api/admin/sessions': { auth: 'admin', instructor: 'own', response: AdminSessionsResponse },
  'POST /api/admin/sessions/end-others': {
    auth: 'admin',
    instructor: 'own',
    freshFactor: true,
    response: MessageResponse,
  },
  'GET /api/admin/auth/admincheck': {
    auth: 'public',
    why: 'answers valid:false to anyone but a signed-in admin',
    response: AdminCheckResponse,
  },
  'POST /api/admin/logout': {
    auth: 'public',
    why: 'signing out without a session is harmless',
    response: MessageResponse,
  },
  'GET /api/admin/course/dashboard': { auth: 'admin', instructor: 'courses', response: courses },
  'GET /api/admin/course/list': { auth: 'admin', instructor: 'courses', response: courseList },
  'GET /api/admin/video/courses': { auth: 'admin', instructor: 'courses', response: courses },
  'POST /api/admin/course/create': {
    auth: 'admin',
    instructor: 'none',
    body: CourseCreateBody,
    response: withCourse,
  },
  'POST /api/admin/course/update': {
    auth: 'admin',
    instructor: 'none',
    body: CourseUpdateBody,
    response: withCourse,
  },
  'GET /api/admin/course/accesslist': {
    auth: 'admin',
    instructor: 'none',
    query: AccessListQuery,
    response: accessList,
  },
  'POST /api/admin/course/grantaccess': {
    auth: 'admin',
    instructor: 'none',
    body: GrantCourseAccessBody,
    response: withAccess,
  },
  'POST /api/admin/course/revokeaccess': {
    auth: 'admin',
    instructor: 'none',
    body: RevokeCourseAccessBody,
    response: withAccess,
  },
  'POST /api/admin/students/dropdown': {
    auth: 'admin',
    instructor: 'none',
    body: StudentsDropdownBody,
    response: dropdown,
  },
  'GET /api/admin/video/editlist': { auth: 'admin', instructor: 'courses', response: VideosResponse },
  'GET /api/admin/getvideolist': { auth: 'admin', instructor: 'courses', response: VideosResponse },
  'POST /api/admin/students/access': {
    auth: 'admin',
    instructor: 'none',
    body: StudentsAccessBody,
    response: VideoAccessSplit,
  },
  'POST /api/admin/video/upload': {
    auth: 'admin',
    instructor: 'courses',
    scope: { url: 'upload', courses: 'course' },
    body: VideoUploadBody,
    response: withVideo,
  },
  'POST /api/admin/video/grant': {
    auth: 'admin',
    instructor: 'none',
    body: VideoAccessBody,
    response: granted,
  },
  'POST /api/admin/video/revoke': {
    auth: 'admin',
    instructor: 'none',
    body: VideoAccessBody,
    response: revoked,
  },
  'POST /api/admin/delete/video': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    body: DeleteVideoBody,
    response: MessageResponse,
  },
  'POST /api/admin/video/update': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video', course: 'course' },
    body: VideoUpdateBody,
    response: withVideo,
  },

  // Student management (beyond the spec).
  'GET /api/admin/students': {
    auth: 'admin',
    instructor: 'courses',
    scope: { courseId: 'course' },
    query: StudentListQuery,
    response: StudentListResponse,
  },
  'POST /api/admin/students': {
    auth: 'admin',
    instructor: 'none',
    body: AddStudentBody,
    response: AddStudentResponse,
    status: 201,
  },
  'POST /api/admin/students/import/preview': {
    auth: 'admin',
    instructor: 'none',
    body: StudentImportBody,
    response: ImportPreviewResponse,
  },
  'POST /api/admin/students/import': {
    auth: 'admin',
    instructor: 'none',
    body: StudentImportBody,
    response: ImportResult,
    status: 201,
  },
  'POST /api/admin/students/enrol': {
    auth: 'admin',
    instructor: 'none',
    body: EnrolStudentsBody,
    response: EnrolResult,
  },
  'POST /api/admin/students/:studentId/password': {
    auth: 'admin',
    instructor: 'none',
    freshFactor: true,
    params: StudentIdParam,
    response: MessageResponse,
  },
  'GET /api/admin/students/:studentId/history': {
    auth: 'admin',
    instructor: 'none',
    params: StudentIdParam,
    response: AccessHistoryResponse,
  },

  // Instructors (docs/SECURITY.md "Instructors"): staff scoped to the courses an admin assigns.
  'GET /api/admin/instructors': { auth: 'admin', instructor: 'none', response: InstructorListResponse },
  'POST /api/admin/instructors': {
    auth: 'admin',
    instructor: 'none',
    freshFactor: true,
    body: NewInstructor,
    response: InstructorCreatedResponse,
    status: 201,
  },
  'POST /api/admin/instructors/:userId/courses': {
    auth: 'admin',
    instructor: 'none',
    freshFactor: true,
    params: InstructorIdParam,
    body: AssignCoursesBody,
    response: InstructorSavedResponse,
  },
  'DELETE /api/admin/instructors/:userId': {
    auth: 'admin',
    instructor: 'none',
    freshFactor: true,
    params: InstructorIdParam,
    response: MessageResponse,
  },

  // Learning analytics (docs/ANALYTICS.md); ?format=csv downloads the same answer.
  'GET /api/admin/analytics/videos/:videoId': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    query: AnalyticsFormatQuery,
    response: VideoAnalyticsResponse,
    download: ANALYTICS_DOWNLOADS,
  },
  'GET /api/admin/analytics/courses/:courseId': {
    auth: 'admin',
    instructor: 'courses',
    scope: { courseId: 'course' },
    params: CourseIdParam,
    query: CourseGridQuery,
    response: CourseAnalyticsResponse,
    download: ANALYTICS_DOWNLOADS,
  },
  'GET /api/admin/analytics/students/:studentId': {
    auth: 'admin',
    instructor: 'none',
    params: StudentIdParam,
    query: AnalyticsFormatQuery,
    response: StudentAnalyticsResponse,
    download: ANALYTICS_DOWNLOADS,
  },

  // Captions (docs/CAPTIONS.md): admins attach them per video and language; viewers read them with
  // the same access as the video.
  'GET /api/admin/videos/:videoId/captions': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    response: CaptionListResponse,
  },
  'POST /api/admin/videos/:videoId/captions': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    multipart: CaptionUploadFields,
    response: CaptionSavedResponse,
  },
  'DELETE /api/admin/videos/:videoId/captions/:language': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: CaptionParams,
    response: MessageResponse,
  },
  // The draft track from machine speech (docs/SEARCH.md): its cue count, or `?format=vtt` the file
  // (404 when the video has no speech cues); publishing saves it as a caption track.
  'GET /api/admin/videos/:videoId/captions/speech-draft': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    query: SpeechDraftQuery,
    response: SpeechDraftResponse,
    download: ['text/vtt'],
  },
  'POST /api/admin/videos/:videoId/captions/speech-draft/publish': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    body: SpeechDraftPublishBody,
    response: CaptionSavedResponse,
  },
  'GET /api/videos/:videoId/captions': {
    auth: 'viewer',
    params: VideoIdParam,
    response: CaptionListResponse,
  },
  'GET /api/videos/:videoId/captions/:language': {
    auth: 'viewer',
    params: CaptionParams,
    file: ['text/vtt'],
  },

  // Notes and questions at a moment (issue 30). Notes are their student's alone (no admin route
  // returns them); questions are seen by everyone who may watch the video, answered by staff.
  'GET /api/videos/:videoId/notes': { auth: 'student', params: VideoIdParam, response: NoteListResponse },
  'POST /api/videos/:videoId/notes': {
    auth: 'student',
    params: VideoIdParam,
    body: NoteBody,
    response: NoteSavedResponse,
    status: 201,
  },
  'PATCH /api/notes/:noteId': {
    auth: 'student',
    params: NoteIdParam,
    body: NotePatchBody,
    response: NoteSavedResponse,
  },
  'DELETE /api/notes/:noteId': { auth: 'student', params: NoteIdParam, response: MessageResponse },
  'GET /api/courses/:courseId/notes': {
    auth: 'student',
    params: CourseIdParam,
    query: NotesExportQuery,
    response: CourseNotesResponse,
    download: NOTES_DOWNLOADS,
  },
  'GET /api/videos/:videoId/questions': {
    auth: 'viewer',
    params: VideoIdParam,
    response: QuestionListResponse,
  },
  'POST /api/videos/:videoId/questions': {
    auth: 'student',
    params: VideoIdParam,
    body: QuestionBody,
    response: QuestionSavedResponse,
    status: 201,
  },
  'GET /api/questions/unread': { auth: 'student', response: UnreadResponse },
  'POST /api/questions/:questionId/me-too': {
    auth: 'student',
    params: QuestionIdParam,
    response: MeTooResponse,
  },
  'POST /api/questions/:questionId/seen': {
    auth: 'student',
    params: QuestionIdParam,
    response: MessageResponse,
  },
  'POST /api/questions/:questionId/answers': {
    auth: 'admin',
    instructor: 'courses',
    scope: { questionId: 'question' },
    params: QuestionIdParam,
    body: AnswerBody,
    response: QuestionSavedResponse,
    status: 201,
  },
  'GET /api/questions/:questionId/frame.jpg': {
    auth: 'viewer',
    params: QuestionIdParam,
    file: QUESTION_FRAME_FILES,
  },
  'POST /api/questions/:questionId/accept': {
    auth: 'viewer',
    params: QuestionIdParam,
    body: AcceptBody,
    response: QuestionSavedResponse,
  },
  'GET /api/admin/questions': {
    auth: 'admin',
    instructor: 'courses',
    query: QueueQuery,
    response: QueueResponse,
  },
  'POST /api/admin/questions/:questionId/status': {
    auth: 'admin',
    instructor: 'courses',
    scope: { questionId: 'question' },
    params: QuestionIdParam,
    body: QuestionStatusBody,
    response: QuestionSavedResponse,
  },
  'GET /api/admin/videos/:videoId/learning': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    response: VideoLearningCounts,
  },
  // Checkpoints (issue 39): questions at a moment that the server holds the lecture at; staff
  // place them (with the answers), students see them without, and answer one at a time.
  'GET /api/admin/videos/:videoId/checkpoints': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    response: StaffCheckpointList,
  },
  'POST /api/admin/videos/:videoId/checkpoints': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    body: CheckpointBody,
    response: StaffCheckpointSaved,
    status: 201,
  },
  'PATCH /api/admin/checkpoints/:checkpointId': {
    auth: 'admin',
    instructor: 'courses',
    scope: { checkpointId: 'checkpoint' },
    params: CheckpointIdParam,
    body: CheckpointPatchBody,
    response: StaffCheckpointSaved,
  },
  'DELETE /api/admin/checkpoints/:checkpointId': {
    auth: 'admin',
    instructor: 'courses',
    scope: { checkpointId: 'checkpoint' },
    params: CheckpointIdParam,
    response: MessageResponse,
  },
  'GET /api/videos/:videoId/checkpoints': {
    auth: 'viewer',
    params: VideoIdParam,
    response: StudentCheckpointList,
  },
  'POST /api/checkpoints/:checkpointId/attempts': {
    auth: 'student',
    params: CheckpointIdParam,
    body: AttemptBody,
    response: AttemptResponse,
  },
  'GET /api/courses/:courseId/completion': {
    auth: 'student',
    params: CourseIdParam,
    response: CompletionResponse,
  },
  // Search inside lectures (docs/SEARCH.md): captions, text on screen and speech, with their times;
  // a student finds only what they may watch now.
  'GET /api/search': { auth: 'student', query: SearchQuery, response: SearchResponse },
  'GET /api/videos/:videoId/screen-text': {
    auth: 'viewer',
    params: VideoIdParam,
    query: ScreenTextQuery,
    response: ScreenTextResponse,
  },
  // A hit's still (JPEG, 320 px wide), only at a second where an index entry starts.
  'GET /api/videos/:videoId/frame': {
    auth: 'viewer',
    params: VideoIdParam,
    query: FrameQuery,
    file: ['image/jpeg'],
  },
  'GET /api/admin/search': {
    auth: 'admin',
    instructor: 'courses',
    query: AdminSearchQuery,
    response: SearchResponse,
  },
  'GET /api/admin/videos/:videoId/index': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    response: VideoIndexResponse,
  },
  // Starts the video's index over (a search.index job with force); 409 while one is queued or running.
  'POST /api/admin/videos/:videoId/index': {
    auth: 'admin',
    instructor: 'courses',
    scope: { videoId: 'video' },
    params: VideoIdParam,
    response: MessageResponse,
    status: 202,
  },

  // Leak tracing (docs/CAPTIONS.md): each playback gets a code the player draws; admins look it up.
  'POST /api/playback': { auth: 'viewer', body: PlaybackBody, response: PlaybackResponse },
  'GET /api/admin/trace/:code': {
    auth: 'admin',
    instructor: 'none',
    freshFactor: true,
    params: TraceCodeParam,
    response: TraceResponse,
  },
  // A downloaded copy (docs/FORENSIC.md "Tracing from the screen"): the upload queues a job; its run is polled.
  'POST /api/admin/trace-runs': {
    auth: 'admin',
    instructor: 'none',
    freshFactor: true,
    multipart: TraceUploadFields,
    response: TraceRunStarted,
    status: 202,
  },
  'GET /api/admin/trace-runs': { auth: 'admin', instructor: 'none', response: TraceRunsResponse },
  'GET /api/admin/trace-runs/:runId': {
    auth: 'admin',
    instructor: 'none',
    params: TraceRunParam,
    response: TraceRunResponse,
  },

  // Live classes (docs/LIVE.md): staff of the course schedule them and see the ingest (stream key);
  // students list their courses' classes and add one to their calendar. The class's lecture plays
  // through the stream routes like any other.
  'POST /api/admin/live-classes': {
    auth: 'admin',
    instructor: 'courses',
    scope: { courseId: 'course' },
    body: LiveClassCreateBody,
    response: AdminLiveClass,
    status: 201,
  },
  'GET /api/admin/live-classes': { auth: 'admin', instructor: 'courses', response: AdminLiveClassList },
  'PATCH /api/admin/live-classes/:classId': {
    auth: 'admin',
    instructor: 'courses',
    scope: { classId: 'live-class' },
    params: LiveClassIdParam,
    body: LiveClassUpdateBody,
    response: AdminLiveClass,
  },
  'DELETE /api/admin/live-classes/:classId': {
    auth: 'admin',
    instructor: 'courses',
    scope: { classId: 'live-class' },
    params: LiveClassIdParam,
    response: MessageResponse,
  },
  'POST /api/admin/live-classes/:classId/key': {
    auth: 'admin',
    instructor: 'courses',
    scope: { classId: 'live-class' },
    params: LiveClassIdParam,
    response: AdminLiveClass,
  },
  // Attendance (docs/LIVE.md "Attendance"); ?format=csv downloads the same answer.
  'GET /api/admin/live-classes/:classId/attendance': {
    auth: 'admin',
    instructor: 'courses',
    scope: { classId: 'live-class' },
    params: LiveClassIdParam,
    query: LiveAttendanceQuery,
    response: LiveAttendanceResponse,
    download: ANALYTICS_DOWNLOADS,
  },
  'GET /api/courses/:courseId/live-classes': {
    auth: 'student',
    params: CourseIdParam,
    response: z.array(StudentLiveClass),
  },
  'GET /api/live-classes/:classId/calendar.ics': {
    auth: 'viewer',
    params: LiveClassIdParam,
    file: [LIVE_CALENDAR_TYPE],
  },
  // nginx's rtmp module asks these (form-encoded POST, so the key is in no URL or access log).
  'POST /api/live/rtmp/publish': {
    auth: 'public',
    why: "nginx's on_publish callback: the stream key in the body is the proof; a wrong one is 403 before nginx takes any media; limited per encoder address",
    body: RtmpCallbackBody,
    response: MessageResponse,
  },
  'POST /api/live/rtmp/done': {
    auth: 'public',
    why: "nginx's on_publish_done callback: the stream key in the body again; marks the class's RTMP encoder gone (the reconnect grace runs)",
    body: RtmpCallbackBody,
    response: MessageResponse,
  },

  // Operations (docs/OPERATIONS.md): what players report of playback, and Prometheus's scrape.
  'GET /api/admin/playback-health': { auth: 'admin', instructor: 'none', response: PlaybackHealthResponse },
  'GET /metrics': {
    auth: 'token',
    why: 'Prometheus text for a scraper holding METRICS_TOKEN as a bearer token (checked by the handler; refused otherwise)',
    file: ['text/plain'],
  },
  // Backups (README "Backups"): runs and schedule, "Back up now" (a job; joins one under way), progress.
  'GET /api/admin/backups': {
    auth: 'admin',
    instructor: 'none',
    query: BackupOverviewQuery,
    response: BackupOverview,
  },
  'POST /api/admin/backups': {
    auth: 'admin',
    instructor: 'none',
    freshFactor: true,
    response: BackupStarted,
  },
  'GET /api/admin/backups/:runId': {
    auth: 'admin',
    instructor: 'none',
    params: BackupRunParam,
    response: BackupRunResponse,
  },

  // Certificates of completion (issue 39): the student's PDFs, the public verification page's data
  // and the W3C status list anyone's verifier fetches (no sign-in, no opening hours), staff revoking.
  'GET /api/certificates': { auth: 'student', response: StudentCertificatesResponse },
  'GET /api/certificates/:certificateId/pdf': {
    auth: 'student',
    params: CertificateIdParam,
    file: ['application/pdf'],
  },
  'GET /api/public/certificates/:serial': {
    auth: 'public',
    why: 'the verification page an employer opens from the QR code; the serial is the capability; limited per client',
    alwaysOpen: true,
    params: SerialParam,
    response: PublicCertificate,
  },
  'GET /credentials/status/:listId': {
    auth: 'public',
    why: 'the W3C Bitstring Status List credential that any verifier fetches to learn whether a certificate is revoked',
    params: StatusListParam,
    response: StatusListCredential,
  },
  'GET /api/admin/certificates': { auth: 'admin', instructor: 'none', response: AdminCertificatesResponse },
  'POST /api/admin/certificates/:certificateId/revoke': {
    auth: 'admin',
    instructor: 'none',
    params: CertificateIdParam,
    body: RevokeBody,
    response: CertificateSavedResponse,
  },
  'POST /api/admin/certificates/:certificateId/reissue': {
    auth: 'admin',
    instructor: 'none',
    params: CertificateIdParam,
    response: CertificateSavedResponse,
    status: 201,
  },

  // Images.
  'GET /thumbnails/:file': {
    auth: 'public',
    why: 'content-addressed course and video images; names are unguessable hashes',
    params: z.object({ file: z.string() }),
    file: ['image/png', 'image/jpeg'],
  },

  // The streamer (ARCHITECTURE.md "Media pipeline").
  'POST /stream/upload-chunk': {
    auth: 'admin',
    instructor: 'courses',
    multipart: UploadChunkFields,
    response: UploadOffsetResponse,
  },
  'GET /stream/upload-status': {
    auth: 'admin',
    instructor: 'courses',
    query: UploadStatusQuery,
    response: UploadOffsetResponse,
  },
  'POST /stream/upload': {
    auth: 'admin',
    instructor: 'courses',
    headers: FinalizeUploadHeaders,
    response: FinalizeUploadResponse,
  },
  'GET /stream/videos/:id/master.m3u8': {
    auth: 'viewer',
    params: videoParam,
    file: ['application/vnd.apple.mpegurl'],
  },
  'GET /stream/videos/:id/:rendition/:file': {
    auth: 'token',
    why: 'segments carry a link signed for the session cookie (no session lookup per segment); child playlists also check the session',
    params: z.object({ id: z.string(), rendition: z.string(), file: z.string() }),
    query: z.object({ t: z.string().optional().catch(undefined) }),
    file: ['application/vnd.apple.mpegurl', 'video/mp2t'],
    fastPath: true,
  },
  'GET /stream/videos/:id/keys/:period': {
    auth: 'viewer',
    params: z.object({ id: z.string(), period: z.string() }),
    file: ['application/octet-stream'],
  },
  'GET /stream/videos/:id/poster.jpg': { auth: 'viewer', params: videoParam, file: ['image/jpeg'] },
  'DELETE /stream/videos/:id': {
    auth: 'admin',
    instructor: 'courses',
    scope: { id: 'video' },
    params: videoParam,
    response: MessageResponse,
  },

  // Probes for load balancers and monitors (docs/OPERATIONS.md): no session, no opening hours.
  'GET /healthz': {
    auth: 'public',
    why: 'liveness probe: says only that the process serves',
    response: LivenessResponse,
  },
  'GET /readyz': {
    auth: 'public',
    why: 'readiness probe for the load balancer: ok/ms and a one-line error per dependency, no secrets; 503 when not ready or draining',
    response: ReadinessResponse,
  },
} as const satisfies Record<RouteTemplate, RouteSpec>;

/** Checked when compiling: every 'courses' route that names an id declares its scope (route-kit.ts). */
type MisScoped = `${MisScopedRoutes<typeof routes>}: declare its scope, over fields it reads`;
export const everyIdScoped: [MisScoped] extends [never] ? true : MisScoped = true;

export type Routes = typeof routes;
export type RouteKey = keyof Routes;
