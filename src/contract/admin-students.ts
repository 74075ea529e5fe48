import { z } from 'zod';
import { IsoTime, MessageResponse } from './auth';
import { accessFields, AccessStateField, EntityId, GrantDays } from './courses';
import { adminMessages, validation } from './messages';
import { NewStudent } from './students';
import { CourseRef, DropdownStudent, MAX_STUDENTS_PER_CALL } from './videos';

export const STUDENT_PAGE_SIZE = 50;
export const STUDENT_PAGE_SIZE_MAX = 200;

const positiveInt = (fallback: number, max: number) =>
  z.preprocess((v) => (v === undefined || v === '' ? fallback : Number(v)), z.number().int().min(1).max(max));

/**
 * GET /api/admin/students: search (roll number, name, e-mail or username) and/or filter by course,
 * or `unassigned=true` for students enrolled in no course; paginated.
 */
export const StudentListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  courseId: EntityId('courseId').optional(),
  unassigned: z
    .enum(['true', 'false'], { error: 'Invalid or missing field: unassigned' })
    .optional()
    .transform((v) => v === 'true'),
  page: positiveInt(1, 100_000),
  pageSize: positiveInt(STUDENT_PAGE_SIZE, STUDENT_PAGE_SIZE_MAX),
});
export type StudentListQuery = z.infer<typeof StudentListQuery>;

/** POST /api/admin/students: the initial password is always generated and mailed. */
export const AddStudentBody = NewStudent.omit({ password: true });
export type AddStudentBody = z.infer<typeof AddStudentBody>;

/** POST /api/admin/students/import/preview and /import: the CSV file's text (header rollno,name,email[,username][,password]). */
export const StudentImportBody = z.object({
  csv: z.string({ error: adminMessages.csvRequired }).min(1, adminMessages.csvRequired).max(3_500_000),
});

/** POST /api/admin/students/enrol: grant (or extend) a course to the selected students for N days. */
export const EnrolStudentsBody = z.object({
  courseId: EntityId('courseId'),
  studentIds: z
    .array(z.string().trim().min(1), { error: validation.noStudents })
    .min(1, validation.noStudents)
    .max(MAX_STUDENTS_PER_CALL, `At most ${MAX_STUDENTS_PER_CALL} students at once.`),
  days: GrantDays,
});
export type EnrolStudentsBody = z.infer<typeof EnrolStudentsBody>;

/** One course of a student in the student list. */
export const StudentCourseAccess = z.strictObject({
  courseId: z.string(),
  name: z.string(),
  batch: z.number().int(),
  ...accessFields,
  access: AccessStateField,
});
export type StudentCourseAccess = z.infer<typeof StudentCourseAccess>;

/** A student account as the back office names it: the dropdown fields and the username. */
export const StudentAccount = DropdownStudent.extend({ username: z.string() });

export const AdminStudent = StudentAccount.extend({
  /** True until the student has chosen their own password. */
  firstlogin: z.boolean(),
  /** Null when never signed in. */
  lastSignInAt: IsoTime.nullable(),
  createdAt: IsoTime,
  courses: z.array(StudentCourseAccess),
});
export type AdminStudent = z.infer<typeof AdminStudent>;

export const StudentListResponse = z.strictObject({
  students: z.array(AdminStudent),
  total: z.number().int().min(0),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type StudentListResponse = z.infer<typeof StudentListResponse>;

/** POST /students: the new student, and whether their initial password reached them. */
export const AddStudentResponse = MessageResponse.extend({ student: AdminStudent, mailed: z.boolean() });

export const ImportPreviewRow = StudentAccount.omit({ _id: true }).extend({
  line: z.number().int(),
  hasPassword: z.boolean(),
  problems: z.array(z.string()),
});
export type ImportPreviewRow = z.infer<typeof ImportPreviewRow>;

export const ImportPreviewResponse = z.strictObject({
  rows: z.array(ImportPreviewRow),
  fileProblems: z.array(z.string()),
  valid: z.boolean(),
});
export type ImportPreviewResponse = z.infer<typeof ImportPreviewResponse>;

/** POST /students/import: who was created, and the addresses their initial passwords did not reach. */
export const ImportResult = MessageResponse.extend({
  imported: z.number().int(),
  students: z.array(StudentAccount),
  mailFailures: z.array(z.string()),
});
export type ImportResult = z.infer<typeof ImportResult>;

/** POST /students/enrol: how many were enrolled anew, granted again and extended. */
export const EnrolResult = MessageResponse.extend({
  enrolled: z.number().int(),
  granted: z.number().int(),
  extended: z.number().int(),
});

export const AccessAction = z.enum([
  'course.enrol',
  'course.grant',
  'course.extend',
  'course.revoke',
  'video.grant',
  'video.revoke',
  /** Written by the key route when a session fetches keys faster than any player (issue 11). */
  'video.suspected-download',
]);
export type AccessAction = z.infer<typeof AccessAction>;

/** One line of a student's access history, newest first. */
export const AccessHistoryEvent = z.strictObject({
  _id: z.string(),
  at: IsoTime,
  action: AccessAction,
  actor: z.strictObject({ _id: z.string(), name: z.string(), username: z.string() }).nullable(),
  course: CourseRef.nullable(),
  /** Present for video events; `_id` is null once the video was deleted. */
  video: z.strictObject({ _id: z.string().nullable(), title: z.string() }).nullable(),
  oldexpiration: IsoTime.nullable(),
  newexpiration: IsoTime.nullable(),
  reason: z.string().nullable(),
});
export type AccessHistoryEvent = z.infer<typeof AccessHistoryEvent>;

export const AccessHistoryResponse = z.strictObject({
  student: DropdownStudent,
  events: z.array(AccessHistoryEvent),
});
export type AccessHistoryResponse = z.infer<typeof AccessHistoryResponse>;
