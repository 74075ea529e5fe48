import { z } from 'zod';
import type { CourseAccessState } from './access-policy';
import { CheckpointStats, StaffCheckpoint } from './checkpoints';
import { AccessStateField } from './courses';
import { studentNameFields } from './students';

/** Learning analytics for admins (base /api/admin/analytics): what students actually watched. */

export const ANALYTICS_PAGE_SIZE = 25;
export const ANALYTICS_PAGE_SIZE_MAX = 100;
/** The student page's watch-time chart covers this many days, today included. */
export const ANALYTICS_DAYS = 30;
/** No progress saved for this many days puts an actively enrolled student at risk. */
export const AT_RISK_IDLE_DAYS = 7;

/** What the course grid sorts by (`?sort=`); its 400 message lists these, so a new one is named once. */
export const COURSE_GRID_SORTS = ['name', 'rollno', 'share', 'started', 'watchTime', 'lastActivity'] as const;
export type CourseGridSort = (typeof COURSE_GRID_SORTS)[number];

export const analyticsMessages = {
  formatInvalid: 'format must be json or csv.',
  sortInvalid: `sort must be one of ${COURSE_GRID_SORTS.join(', ')}.`,
  orderInvalid: 'order must be asc or desc.',
  filterInvalid: 'filter must be all or at-risk.',
  pageInvalid: 'page and pageSize must be whole numbers from 1.',
  loadFailed: 'Failed to load analytics.',
} as const;

const Format = z.enum(['json', 'csv'], { error: analyticsMessages.formatInvalid }).default('json');

/** ?format=csv turns any analytics answer into a CSV download. */
export const AnalyticsFormatQuery = z.object({ format: Format });

const pageNumber = (fallback: number, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? fallback : Number(v)),
    z
      .number({ error: analyticsMessages.pageInvalid })
      .int(analyticsMessages.pageInvalid)
      .min(1, analyticsMessages.pageInvalid)
      .max(max, analyticsMessages.pageInvalid),
  );

/** GET /api/admin/analytics/courses/:courseId: the students x videos grid, sorted and paged on the server. */
export const CourseGridQuery = z.object({
  format: Format,
  sort: z.enum(COURSE_GRID_SORTS, { error: analyticsMessages.sortInvalid }).default('name'),
  order: z.enum(['asc', 'desc'], { error: analyticsMessages.orderInvalid }).default('asc'),
  filter: z.enum(['all', 'at-risk'], { error: analyticsMessages.filterInvalid }).default('all'),
  page: pageNumber(1, 100_000),
  pageSize: pageNumber(ANALYTICS_PAGE_SIZE, ANALYTICS_PAGE_SIZE_MAX),
});
export type CourseGridQuery = z.infer<typeof CourseGridQuery>;

export interface AnalyticsCourseRef {
  _id: string;
  name: string;
  batch: number;
  coursecode: string;
}

/** One 5-second bucket of a video's retention curve. */
export interface RetentionBucket {
  /** Seconds from the start of the video. */
  start: number;
  /** Students who watched at least a second of it. */
  viewers: number;
  /** How many times it was played in full, rewatching included (played seconds / bucket length). */
  plays: number;
}

/** A video as the analytics name it. */
export interface AnalyticsVideoRef {
  _id: string;
  title: string;
  durationSeconds: number;
}

/** GET /api/admin/analytics/videos/:videoId */
export interface VideoAnalytics {
  video: AnalyticsVideoRef & { course: AnalyticsCourseRef | null };
  bucketSeconds: number;
  /** Students with active course access and a grant of this video (the player's rule). */
  studentsWithAccess: number;
  /** Of those, how many played any of it. */
  viewers: number;
  /** Of those, how many completed it (90% of it actually played). */
  completed: number;
  /** completed / studentsWithAccess (0 when nobody has access). */
  completionRate: number;
  /** The median over students with access of the share of the video they watched (0..1). */
  medianShareWatched: number;
  /** The bucket after which the most viewers stop watching, or null when nobody watched. */
  biggestDropOff: { start: number; lost: number } | null;
  buckets: RetentionBucket[];
  /** The width of a question bucket in seconds (QUESTION_BUCKET_SECONDS). */
  questionBucketSeconds: number;
  /**
   * Where students got lost: per question bucket of the video, how many questions were asked at a
   * moment inside it (hidden ones not counted). One bucket per `questionBucketSeconds`, from 0.
   */
  questionBuckets: QuestionBucket[];
  /** The video's checkpoints in time order, with how students fared there (issue 39). */
  checkpoints: AnalyticsCheckpoint[];
}

/** Questions asked inside one bucket of a video (analytics' confusion overlay). */
export interface QuestionBucket {
  start: number;
  questions: number;
}

/** Questions are counted per 10 seconds of the video on the retention chart. */
export const QUESTION_BUCKET_SECONDS = 10;

/** A student's cell in the course grid, per video in `CourseAnalytics.videos` order. */
export interface GridCell {
  /** Share of the video watched (0..1). */
  share: number;
  completed: boolean;
}

/** How far one student got in one course: the figures the grid and the student page both show. */
export interface CourseProgressFigures {
  videosStarted: number;
  videosCompleted: number;
  /** Share of the course's total length watched (0..1). */
  watchedShare: number;
  /** Seconds of video played in this course, rewatching included. */
  watchSeconds: number;
  /** ISO timestamp of the last progress save in this course. */
  lastActivity: string | null;
}

export interface GridStudent extends CourseProgressFigures {
  _id: string;
  rollno: string;
  name: string;
  email: string;
  access: CourseAccessState;
  atRisk: boolean;
  cells: GridCell[];
}

/** GET /api/admin/analytics/courses/:courseId */
export interface CourseAnalytics {
  course: AnalyticsCourseRef;
  /** The course's ready videos, in course order. */
  videos: AnalyticsVideoRef[];
  /** Enrolled students, and how many of them are at risk. */
  totals: { students: number; atRisk: number };
  /** Students matching the filter (all pages). */
  total: number;
  page: number;
  pageSize: number;
  students: GridStudent[];
}

export interface StudentVideoActivity extends AnalyticsVideoRef {
  watchedSeconds: number;
  share: number;
  completed: boolean;
  /** ISO timestamp of the last progress save of this video. */
  lastWatched: string | null;
  /** Seconds played in the last 7 days, rewatching included. */
  weekSeconds: number;
}

export interface StudentCourseActivity extends AnalyticsCourseRef, CourseProgressFigures {
  access: CourseAccessState;
  accessexpiration: string;
  atRisk: boolean;
  totalVideos: number;
  videos: StudentVideoActivity[];
}

/** GET /api/admin/analytics/students/:studentId */
export interface StudentAnalytics {
  student: { _id: string; rollno: string; name: string; email: string };
  /** The school's time zone (OPEN_TZ): what "a day" means below. */
  timeZone: string;
  /** The last 30 days, oldest first, today last; seconds played each day. */
  days: { day: string; seconds: number }[];
  courses: StudentCourseActivity[];
}

// The answers as schemas, for the route table (responses are checked against them in tests).

const share = z.number().min(0).max(1);
const instant = z.string().nullable();
const courseProgressFigures = {
  videosStarted: z.number().int(),
  videosCompleted: z.number().int(),
  watchedShare: share,
  watchSeconds: z.number(),
  lastActivity: instant,
};
const VideoRef = z.strictObject({ _id: z.string(), title: z.string(), durationSeconds: z.number() });
const CourseRef = z.strictObject({
  _id: z.string(),
  name: z.string(),
  batch: z.number(),
  coursecode: z.string(),
});

/**
 * A checkpoint on the retention chart (VideoAnalytics.checkpoints): its moment, kind, prompt and
 * whether it is required, and how students fared there (CheckpointStats; the distribution has
 * every choice in order, or the 5 most common outputs).
 */
export const AnalyticsCheckpoint = z.strictObject({
  ...StaffCheckpoint.pick({ _id: true, t: true, kind: true, prompt: true, required: true }).shape,
  ...CheckpointStats.shape,
});
export type AnalyticsCheckpoint = z.infer<typeof AnalyticsCheckpoint>;

export const VideoAnalyticsResponse = z.strictObject({
  video: VideoRef.extend({ course: CourseRef.nullable() }),
  bucketSeconds: z.number(),
  studentsWithAccess: z.number().int(),
  viewers: z.number().int(),
  completed: z.number().int(),
  completionRate: share,
  medianShareWatched: share,
  biggestDropOff: z.strictObject({ start: z.number(), lost: z.number().int() }).nullable(),
  buckets: z.array(z.strictObject({ start: z.number(), viewers: z.number().int(), plays: z.number() })),
  questionBucketSeconds: z.number(),
  questionBuckets: z.array(z.strictObject({ start: z.number(), questions: z.number().int() })),
  checkpoints: z.array(AnalyticsCheckpoint),
}) satisfies z.ZodType<VideoAnalytics>;

export const CourseAnalyticsResponse = z.strictObject({
  course: CourseRef,
  videos: z.array(VideoRef),
  totals: z.strictObject({ students: z.number().int(), atRisk: z.number().int() }),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  students: z.array(
    z.strictObject({
      _id: z.string(),
      ...studentNameFields,
      access: AccessStateField,
      atRisk: z.boolean(),
      ...courseProgressFigures,
      cells: z.array(z.strictObject({ share, completed: z.boolean() })),
    }),
  ),
}) satisfies z.ZodType<CourseAnalytics>;

export const StudentAnalyticsResponse = z.strictObject({
  student: z.strictObject({ _id: z.string(), ...studentNameFields }),
  timeZone: z.string(),
  days: z.array(z.strictObject({ day: z.string(), seconds: z.number() })),
  courses: z.array(
    CourseRef.extend({
      access: AccessStateField,
      accessexpiration: z.string(),
      atRisk: z.boolean(),
      totalVideos: z.number().int(),
      ...courseProgressFigures,
      videos: z.array(
        VideoRef.extend({
          watchedSeconds: z.number(),
          share,
          completed: z.boolean(),
          lastWatched: instant,
          weekSeconds: z.number(),
        }),
      ),
    }),
  ),
}) satisfies z.ZodType<StudentAnalytics>;

/** What each analytics answer may be downloaded as. */
export const ANALYTICS_DOWNLOADS = ['text/csv'] as const;
