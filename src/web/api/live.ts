import { useQuery } from '@tanstack/react-query';
import {
  liveMessages,
  type AdminLiveClass,
  type LiveClassCreateBody,
  type LiveClassUpdateBody,
} from '../../contract/live';
import { call, calling } from './client';

/** Live classes in the back office (/adminlive, docs/LIVE.md): staff of a course schedule its classes. */
export const liveKeys = {
  all: ['admin', 'live-classes'] as const,
  attendance: (classId: string) => ['admin', 'live-classes', classId, 'attendance'] as const,
};

/** How often the list is asked again: a class turns live or ended on its own. */
export const LIVE_LIST_POLL_MS = 30_000;
/** How often while a recording is being packaged (as the videos list while one is processing). */
export const RECORDING_POLL_MS = 2_000;

const packaging = (c: AdminLiveClass) =>
  c.recording?.state === 'waiting' || c.recording?.state === 'packaging';

/**
 * GET /api/admin/live-classes: the classes of the courses this staff member may manage, with their
 * ingest and their recordings' packaging; asked again sooner while a recording is on its way.
 */
export function useLiveClasses() {
  return useQuery<AdminLiveClass[]>({
    queryKey: liveKeys.all,
    queryFn: calling('GET /api/admin/live-classes', {}, (r) => r.classes),
    refetchInterval: (query) => (query.state.data?.some(packaging) ? RECORDING_POLL_MS : LIVE_LIST_POLL_MS),
  });
}

/** The writes; those answering the class say what they did in `message`, as the admin toasts want. */
/** GET /api/admin/live-classes/:classId/attendance: asked again while the class is live. */
export function useAttendance(classId: string, live: boolean) {
  return useQuery({
    queryKey: liveKeys.attendance(classId),
    queryFn: calling('GET /api/admin/live-classes/:classId/attendance', { params: { classId } }),
    refetchInterval: live ? LIVE_LIST_POLL_MS : false,
  });
}

/** The attendance as a CSV download (the browser saves it under the server's file name). */
export const attendanceCsvUrl = (classId: string) =>
  `/api/admin/live-classes/${encodeURIComponent(classId)}/attendance?format=csv`;

export const liveApi = {
  create: (body: LiveClassCreateBody) =>
    call('POST /api/admin/live-classes', { body }).then((live) => ({ live, message: liveMessages.created })),
  update: ({ classId, ...body }: LiveClassUpdateBody & { classId: string }) =>
    call('PATCH /api/admin/live-classes/:classId', { params: { classId }, body }).then((live) => ({
      live,
      message: liveMessages.updated,
    })),
  remove: (classId: string) => call('DELETE /api/admin/live-classes/:classId', { params: { classId } }),
  rotateKey: (classId: string) =>
    call('POST /api/admin/live-classes/:classId/key', { params: { classId } }).then((live) => ({
      live,
      message: liveMessages.keyRotated,
    })),
};
