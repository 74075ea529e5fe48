import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  ADMIN_SESSION_POLL_MS,
  SERVER_TIME_POLL_MS,
  STUDENT_SESSION_POLL_MS,
} from '../../contract/constants';
import { call, calling } from './client';

/** Query keys of the session and opening-hours checks every gate shares. */
export const sessionKeys = {
  serverTime: ['server-time'] as const,
  authCheck: ['auth-check'] as const,
  adminCheck: ['admin-check'] as const,
};

const serverTime = ({ signal }: { signal: AbortSignal }) => call('GET /api/time', { signal });

/**
 * How long an answer fetched ahead of the page (app/prefetch.ts, while its code downloads) still
 * counts when the gate mounts, instead of asking the server again at once.
 */
export const PREFETCHED_FRESH_MS = 5_000;

/** GET /api/time, as the time gate asks it (and app/prefetch.ts ahead of it). */
export const serverTimeQuery = queryOptions({
  queryKey: sessionKeys.serverTime,
  queryFn: serverTime,
  retry: 1,
});

/** GET /api/time, polled every 60 s; `open` decides between the app and the maintenance screen. */
export function useServerTime() {
  return useQuery({
    ...serverTimeQuery,
    refetchInterval: SERVER_TIME_POLL_MS,
    staleTime: PREFETCHED_FRESH_MS,
  });
}

/**
 * The school's time zone (OPEN_TZ), which decides what "today" is for course access. Shares the
 * server-time query: the student gate's polling keeps it fresh; elsewhere it is asked once.
 */
export function useSchoolTimeZone(): string {
  const time = useQuery({
    queryKey: sessionKeys.serverTime,
    queryFn: serverTime,
    staleTime: Infinity,
    retry: 1,
  });
  // Until it is known, UTC: whether a course can be opened does not depend on the zone, only "today" does.
  return time.data?.timeZone ?? 'UTC';
}

/** GET /api/auth/check, as the student gate asks it (and app/prefetch.ts ahead of it). */
export const authCheckQuery = queryOptions({
  queryKey: sessionKeys.authCheck,
  queryFn: calling('GET /api/auth/check', {}),
  retry: false,
});

/**
 * GET /api/auth/check, rechecked every 5 minutes. Asked again whenever a component using it mounts,
 * unless `reusePrefetched` (the student gate): then an answer under PREFETCHED_FRESH_MS old stands.
 */
export function useAuthCheck(options: { poll?: boolean; reusePrefetched?: boolean } = {}) {
  return useQuery({
    ...authCheckQuery,
    refetchInterval: options.poll === false ? false : STUDENT_SESSION_POLL_MS,
    staleTime: options.reusePrefetched ? PREFETCHED_FRESH_MS : 0,
  });
}

/** GET /api/admin/auth/admincheck, rechecked every 3 minutes. */
export function useAdminCheck() {
  return useQuery({
    queryKey: sessionKeys.adminCheck,
    queryFn: calling('GET /api/admin/auth/admincheck', {}),
    refetchInterval: ADMIN_SESSION_POLL_MS,
    retry: false,
    staleTime: 0,
  });
}
