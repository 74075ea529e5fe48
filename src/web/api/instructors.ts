import { useQuery } from '@tanstack/react-query';
import type { NewInstructor } from '../../contract/instructors';
import { call, calling } from './client';

/** Instructors (/admininstructors): admins create them, set their courses and remove them. */
export const instructorKeys = { all: ['admin', 'instructors'] as const };

/** GET /api/admin/instructors: every instructor with the courses they teach. */
export function useInstructors() {
  return useQuery({
    queryKey: instructorKeys.all,
    queryFn: calling('GET /api/admin/instructors', {}, (r) => r.instructors),
  });
}

export const instructorApi = {
  /** Needs a fresh second factor (the client asks for it). */
  create: (body: Omit<NewInstructor, 'courseIds'> & { courseIds: string[] }) =>
    call('POST /api/admin/instructors', { body }),
  assign: ({ userId, courseIds }: { userId: string; courseIds: string[] }) =>
    call('POST /api/admin/instructors/:userId/courses', { params: { userId }, body: { courseIds } }),
  remove: (userId: string) => call('DELETE /api/admin/instructors/:userId', { params: { userId } }),
};
