import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  AccessHistoryResponse,
  AddStudentBody,
  AdminStudent,
  EnrolStudentsBody,
  ImportPreviewResponse,
  StudentListResponse,
} from '../../contract/admin-students';
import { api } from './client';

/** Student management (base /api/admin/students; beyond the spec). */
const BASE = '/api/admin/students';

export const studentKeys = {
  all: ['admin', 'students'] as const,
  list: (query: StudentSearch) => ['admin', 'students', 'list', query] as const,
  history: (studentId: string) => ['admin', 'students', 'history', studentId] as const,
};

export interface StudentSearch {
  q?: string;
  courseId?: string;
  page?: number;
  pageSize?: number;
}

function searchParams(query: StudentSearch): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** GET /students: a page of students matching the search; the previous page stays on screen while the next loads. */
export function useStudents(query: StudentSearch, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: studentKeys.list(query),
    queryFn: ({ signal }) => api.get<StudentListResponse>(`${BASE}${searchParams(query)}`, signal),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET /students/:id/history, newest first. */
export function useStudentHistory(studentId: string | null) {
  return useQuery({
    queryKey: studentKeys.history(studentId ?? ''),
    queryFn: ({ signal }) =>
      api.get<AccessHistoryResponse>(`${BASE}/${encodeURIComponent(studentId!)}/history`, signal),
    enabled: Boolean(studentId),
  });
}

export interface ImportResult {
  message: string;
  imported: number;
  students: AdminStudent[];
  mailFailures: unknown[];
}

export const studentApi = {
  add: (body: AddStudentBody) =>
    api.post<{ message: string; student: AdminStudent; mailed: boolean }>(BASE, body),
  previewImport: (csv: string) => api.post<ImportPreviewResponse>(`${BASE}/import/preview`, { csv }),
  import: (csv: string) => api.post<ImportResult>(`${BASE}/import`, { csv }),
  enrol: (body: EnrolStudentsBody) =>
    api.post<{ message: string; enrolled: number; granted: number; extended: number }>(`${BASE}/enrol`, body),
  resendPassword: (studentId: string) =>
    api.post<{ message: string }>(`${BASE}/${encodeURIComponent(studentId)}/password`),
};
