import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AddStudentBody, EnrolStudentsBody } from '../../contract/admin-students';
import { call, calling } from './client';

/** Query keys of student management (base /api/admin/students; beyond the spec). */
export const adminStudentKeys = {
  all: ['admin', 'students'] as const,
  list: (query: StudentSearch) => ['admin', 'students', 'list', query] as const,
  history: (studentId: string) => ['admin', 'students', 'history', studentId] as const,
};

export interface StudentSearch {
  q?: string;
  courseId?: string;
  /** Only students enrolled in no course. */
  unassigned?: boolean;
  page?: number;
  pageSize?: number;
}

/** GET /students: a page of students matching the search; the previous page stays on screen while the next loads. */
export function useStudents(query: StudentSearch, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: adminStudentKeys.list(query),
    queryFn: calling('GET /api/admin/students', { query }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET /students/:id/history, newest first. */
export function useStudentHistory(studentId: string | null) {
  return useQuery({
    queryKey: adminStudentKeys.history(studentId ?? ''),
    queryFn: calling('GET /api/admin/students/:studentId/history', { params: { studentId: studentId! } }),
    enabled: Boolean(studentId),
  });
}

export const studentApi = {
  add: (body: AddStudentBody) => call('POST /api/admin/students', { body }),
  previewImport: (csv: string) => call('POST /api/admin/students/import/preview', { body: { csv } }),
  import: (csv: string) => call('POST /api/admin/students/import', { body: { csv } }),
  enrol: (body: EnrolStudentsBody) => call('POST /api/admin/students/enrol', { body }),
  resendPassword: (studentId: string) =>
    call('POST /api/admin/students/:studentId/password', { params: { studentId } }),
};
