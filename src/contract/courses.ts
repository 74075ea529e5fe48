import { z } from 'zod';
import { adminMessages, validation } from './messages';
import type { CourseAccessState } from './access-policy';
import { IsoTime } from './auth';
import { CourseProgress } from './progress-schema';
import { studentNameFields } from './students';

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

const CourseCode = requiredText(validation.courseCode, 40);
const CourseName = requiredText(validation.courseName, 200);
const CourseDescription = requiredText(validation.courseDescription, 5_000);

/** The names an endpoint gives the course code and dates (SPEC.md section 7 spells them two ways). */
interface CourseFieldNames {
  code: string;
  start: string;
  end: string;
}
type CourseShape<N extends CourseFieldNames> = { batch: typeof Batch } & Record<
  N['code'],
  typeof CourseCode
> & {
    name: typeof CourseName;
    description: typeof CourseDescription;
    thumbnail: typeof Thumbnail;
  } & Record<N['start'] | N['end'], typeof CourseDate>;

/** The course form's fields in the form's order (the first problem is the one reported), dates in order. */
function courseForm<const N extends CourseFieldNames, P extends z.ZodRawShape = Record<never, never>>(
  names: N,
  first?: P,
) {
  const shape = {
    ...first,
    batch: Batch,
    [names.code]: CourseCode,
    name: CourseName,
    description: CourseDescription,
    thumbnail: Thumbnail,
    [names.start]: CourseDate,
    [names.end]: CourseDate,
  } as P & CourseShape<N>;
  return z.object(shape).refine(
    (course) => {
      const dates = course as Record<string, string>;
      return dates[names.start]! <= dates[names.end]!;
    },
    { message: validation.courseDateOrder, path: [names.start] },
  );
}

/** POST /course/create (SPEC.md section 7: lower-case field names). */
export const CourseCreateBody = courseForm({ code: 'coursecode', start: 'startdate', end: 'enddate' });
export type CourseCreateBody = z.infer<typeof CourseCreateBody>;

/** POST /course/update (SPEC.md section 7: camelCase field names). */
export const CourseUpdateBody = courseForm(
  { code: 'courseCode', start: 'startDate', end: 'endDate' },
  { courseId: EntityId('courseId') },
);
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

/** A JSON number or a numeric string: a count of days, not a date. */
const isDayCount = (value: unknown) =>
  typeof value === 'number' || (typeof value === 'string' && /^\s*[-+]?\d+(\.\d*)?\s*$/.test(value));

/**
 * `accessexpiration` of POST /course/grantaccess: the spec's number of days (a JSON number or a
 * numeric string, as `days` takes it), or, as our extension, the new expiry as an ISO timestamp.
 */
export const AccessExpiration = z.unknown().transform((value, ctx): number | string => {
  const parsed = isDayCount(value) ? GrantDays.safeParse(value) : Instant.safeParse(value);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]!.message });
  return z.NEVER;
});

/**
 * POST /course/grantaccess: a number of days in `accessexpiration` (SPEC.md section 7) or `days`,
 * added to the later of now and the current expiry (section 9); or an explicit future expiry in
 * `accessexpiration`. Enrols the student when not enrolled and clears a revoke.
 */
export const GrantCourseAccessBody = z
  .object({
    courseId: EntityId('courseId'),
    studentId: EntityId('studentId'),
    days: GrantDays.optional(),
    accessexpiration: AccessExpiration.optional(),
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

/** A day as `YYYY-MM-DD`, as the API writes course dates. */
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** What admins and students alike see of a course (SPEC.md section 3). */
const courseFields = {
  batch: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Cacheable image URL, or null when none was uploaded. */
  thumbnail: z.string().nullable(),
  startdate: Day,
  enddate: Day,
};

/** A course as admins see it (SPEC.md section 3, "Course (admin)"). */
export const AdminCourse = z.strictObject({
  _id: z.string(),
  coursecode: z.string(),
  ...courseFields,
  totalvideos: z.number().int().min(0),
  /** Every enrolled student, whatever the state of their access. */
  totalstudents: z.number().int().min(0),
});
export type AdminCourse = z.infer<typeof AdminCourse>;

/** The enrollment fields every access row carries (SPEC.md section 3). */
export const accessFields = {
  accessexpiration: IsoTime,
  accessrevoked: z.boolean(),
  accessrevokedreason: z.string().nullable(),
};

/** SPEC.md section 4's three states as the API names them (src/contract/access-policy.ts decides). */
export const AccessStateField = z.enum([
  'active',
  'expired',
  'revoked',
]) satisfies z.ZodType<CourseAccessState>;

/** A course as a student sees it on the dashboard (SPEC.md section 3, "Course (student list)"). */
export const StudentCourse = z.strictObject({
  courseId: z.string(),
  ...courseFields,
  ...accessFields,
  /** SPEC.md section 4, decided by the server's clock. */
  access: AccessStateField,
  /** Videos completed of those the student may watch, and where "Continue" leads (beyond the spec). */
  progress: CourseProgress,
});
export type StudentCourse = z.infer<typeof StudentCourse>;

/** One enrolled student in the course access list. */
export const CourseAccessStudent = z.strictObject({
  studentid: z.string(),
  ...studentNameFields,
  ...accessFields,
});
export type CourseAccessStudent = z.infer<typeof CourseAccessStudent>;

/** One course's group in GET /course/accesslist; courses without students have an empty list. */
export const CourseAccessListEntry = z.strictObject({
  courseId: z.string(),
  courseName: z.string(),
  batch: z.number().int(),
  students: z.array(CourseAccessStudent),
});
export type CourseAccessListEntry = z.infer<typeof CourseAccessListEntry>;

/** The enrollment after a grant or revoke. */
export const CourseAccessResult = z.strictObject({
  courseId: z.string(),
  studentid: z.string(),
  ...accessFields,
});
export type CourseAccessResult = z.infer<typeof CourseAccessResult>;
