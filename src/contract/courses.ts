import { z } from 'zod';
import { adminMessages, validation } from './messages';
import type { CourseProgress } from './progress';

/** Thumbnails arrive as data URLs of a JPG or PNG of at most this many bytes. */
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
export const THUMBNAIL_TYPES = ['image/jpeg', 'image/png'] as const;
export const GRANT_DAYS_MAX = 3650;

/** A required text field: trimmed, not blank, with the spec's message when blank or missing. */
export const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, adminMessages.tooLong);

/** A record id as the client sends it; whether it names anything is the server's 404 to give. */
export const EntityId = (what: string) =>
  z
    .string({ error: `Invalid or missing field: ${what}` })
    .trim()
    .min(1, `Invalid or missing field: ${what}`);

/** Numeric strings from form inputs count as numbers. */
const numeric = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? Number(value) : value;

export const Batch = z.preprocess(
  numeric,
  z
    .number({ error: validation.batch })
    .int(validation.batch)
    .min(1, validation.batch)
    .max(99_999, validation.batch),
);

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A course date as `YYYY-MM-DD` (a calendar day, no time zone). */
export const CourseDate = z
  .string({ error: validation.courseDates })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, validation.courseDates)
  .refine(isCalendarDate, validation.courseDates);

/**
 * A thumbnail: a data URL (or bare base64) of a JPG or PNG. Absent, null or '' keeps the current
 * one; the course's or video's own thumbnail URL (as a form sends it back) keeps it too.
 */
export const Thumbnail = z
  .string()
  .max(Math.ceil((THUMBNAIL_MAX_BYTES * 4) / 3) + 64, adminMessages.thumbnailTooLarge)
  .nullish();

const courseFields = {
  batch: Batch,
  code: requiredText(validation.courseCode, 40),
  name: requiredText(validation.courseName, 200),
  description: requiredText(validation.courseDescription, 5_000),
};

const datesInOrder = (start: string, end: string) => start <= end;

/** POST /course/create (SPEC.md section 7: lower-case field names). */
export const CourseCreateBody = z
  .object({
    batch: courseFields.batch,
    coursecode: courseFields.code,
    name: courseFields.name,
    description: courseFields.description,
    thumbnail: Thumbnail,
    startdate: CourseDate,
    enddate: CourseDate,
  })
  .refine((c) => datesInOrder(c.startdate, c.enddate), {
    message: validation.courseDateOrder,
    path: ['startdate'],
  });
export type CourseCreateBody = z.infer<typeof CourseCreateBody>;

/** POST /course/update (SPEC.md section 7: camelCase field names). */
export const CourseUpdateBody = z
  .object({
    courseId: EntityId('courseId'),
    batch: courseFields.batch,
    courseCode: courseFields.code,
    name: courseFields.name,
    description: courseFields.description,
    thumbnail: Thumbnail,
    startDate: CourseDate,
    endDate: CourseDate,
  })
  .refine((c) => datesInOrder(c.startDate, c.endDate), {
    message: validation.courseDateOrder,
    path: ['startDate'],
  });
export type CourseUpdateBody = z.infer<typeof CourseUpdateBody>;

export const GrantDays = z.preprocess(
  numeric,
  z
    .number({ error: validation.grantDays })
    .int(validation.grantDays)
    .min(1, validation.grantDays)
    .max(GRANT_DAYS_MAX, validation.grantDays),
);

/** An instant as an ISO timestamp (a bare date means its start in UTC). */
export const Instant = z
  .string({ error: adminMessages.expiryInvalid })
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), adminMessages.expiryInvalid);

/**
 * POST /course/grantaccess: `days` (added to the later of now and the current expiry, SPEC.md
 * section 9) or an explicit future `accessexpiration`. Enrols the student when not enrolled and
 * clears a revoke.
 */
export const GrantCourseAccessBody = z
  .object({
    courseId: EntityId('courseId'),
    studentId: EntityId('studentId'),
    days: GrantDays.optional(),
    accessexpiration: Instant.optional(),
  })
  .refine((b) => b.days !== undefined || b.accessexpiration !== undefined, {
    message: validation.grantDays,
    path: ['days'],
  })
  .refine((b) => b.days === undefined || b.accessexpiration === undefined, {
    message: adminMessages.daysOrExpiry,
    path: ['days'],
  });
export type GrantCourseAccessBody = z.infer<typeof GrantCourseAccessBody>;

/** POST /course/revokeaccess. */
export const RevokeCourseAccessBody = z.object({
  courseId: EntityId('courseId'),
  studentId: EntityId('studentId'),
  accessrevokedreason: requiredText(validation.revokeReason, 500),
});
export type RevokeCourseAccessBody = z.infer<typeof RevokeCourseAccessBody>;

/** POST /students/dropdown: the students enrolled in a course. */
export const StudentsDropdownBody = z.object({ courseid: EntityId('courseid') });

/** GET /course/accesslist: all courses, or one with `?courseId=`. */
export const AccessListQuery = z.object({ courseId: EntityId('courseId').optional() });

/** A course as admins see it (SPEC.md section 3, "Course (admin)"). */
export interface AdminCourse {
  _id: string;
  batch: number;
  coursecode: string;
  name: string;
  description: string;
  /** Cacheable image URL, or null when none was uploaded. */
  thumbnail: string | null;
  /** YYYY-MM-DD */
  startdate: string;
  /** YYYY-MM-DD */
  enddate: string;
  totalvideos: number;
  /** Every enrolled student, whatever the state of their access. */
  totalstudents: number;
}

export type CourseAccessState = 'active' | 'expired' | 'revoked';

/** A course as a student sees it on the dashboard (SPEC.md section 3, "Course (student list)"). */
export interface StudentCourse {
  courseId: string;
  name: string;
  description: string;
  thumbnail: string | null;
  batch: number;
  startdate: string;
  enddate: string;
  /** ISO timestamp. */
  accessexpiration: string;
  accessrevoked: boolean;
  accessrevokedreason: string | null;
  /** SPEC.md section 4, decided by the server's clock. */
  access: CourseAccessState;
  /** Videos completed of those the student may watch, and where "Continue" leads (beyond the spec). */
  progress: CourseProgress;
}

/** One enrolled student in the course access list. */
export interface CourseAccessStudent {
  studentid: string;
  rollno: string;
  name: string;
  email: string;
  /** ISO timestamp. */
  accessexpiration: string;
  accessrevoked: boolean;
  accessrevokedreason: string | null;
}

/** One course's group in GET /course/accesslist; courses without students have an empty list. */
export interface CourseAccessListEntry {
  courseId: string;
  courseName: string;
  batch: number;
  students: CourseAccessStudent[];
}

/** The enrollment after a grant or revoke. */
export interface CourseAccessResult {
  courseId: string;
  studentid: string;
  accessexpiration: string;
  accessrevoked: boolean;
  accessrevokedreason: string | null;
}
