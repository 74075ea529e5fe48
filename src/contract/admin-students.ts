import { z } from 'zod';
import { EntityId, GrantDays, type CourseAccessState } from './courses';
import { adminMessages, validation } from './messages';
import { NewStudent } from './students';
import { MAX_STUDENTS_PER_CALL } from './videos';

export const STUDENT_PAGE_SIZE = 50;
export const STUDENT_PAGE_SIZE_MAX = 200;

const positiveInt = (fallback: number, max: number) =>
  z.preprocess((v) => (v === undefined || v === '' ? fallback : Number(v)), z.number().int().min(1).max(max));

/** GET /api/admin/students: search (roll number, name, e-mail or username) and/or filter by course, paginated. */
export const StudentListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  courseId: EntityId('courseId').optional(),
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
export interface StudentCourseAccess {
  courseId: string;
  name: string;
  batch: number;
  /** ISO timestamp. */
  accessexpiration: string;
  accessrevoked: boolean;
  accessrevokedreason: string | null;
  access: CourseAccessState;
}

export interface AdminStudent {
  _id: string;
  rollno: string;
  name: string;
  email: string;
  username: string;
  /** True until the student has chosen their own password. */
  firstlogin: boolean;
  /** ISO timestamp or null when never signed in. */
  lastSignInAt: string | null;
  createdAt: string;
  courses: StudentCourseAccess[];
}

export interface StudentListResponse {
  students: AdminStudent[];
  total: number;
  page: number;
  pageSize: number;
}

export interface ImportPreviewRow {
  line: number;
  rollno: string;
  name: string;
  email: string;
  username: string;
  hasPassword: boolean;
  problems: string[];
}

export interface ImportPreviewResponse {
  rows: ImportPreviewRow[];
  fileProblems: string[];
  valid: boolean;
}

export type AccessAction =
  'course.enrol' | 'course.grant' | 'course.extend' | 'course.revoke' | 'video.grant' | 'video.revoke';

/** One line of a student's access history, newest first. */
export interface AccessHistoryEvent {
  _id: string;
  /** ISO timestamp. */
  at: string;
  action: AccessAction;
  actor: { _id: string; name: string; username: string } | null;
  course: { _id: string; name: string; batch: number } | null;
  /** Present for video events; `_id` is null once the video was deleted. */
  video: { _id: string | null; title: string } | null;
  oldexpiration: string | null;
  newexpiration: string | null;
  reason: string | null;
}

export interface AccessHistoryResponse {
  student: { _id: string; rollno: string; name: string; email: string };
  events: AccessHistoryEvent[];
}
