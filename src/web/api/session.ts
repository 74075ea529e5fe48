import { useQuery } from '@tanstack/react-query';
import type { AdminCheckResponse, AuthCheckResponse, ServerTimeResponse } from '../../contract/auth';
import {
  ADMIN_SESSION_POLL_MS,
  SERVER_TIME_POLL_MS,
  STUDENT_SESSION_POLL_MS,
} from '../../contract/constants';
import { api } from './client';

export const queryKeys = {
  serverTime: ['server-time'] as const,
  authCheck: ['auth-check'] as const,
  adminCheck: ['admin-check'] as const,
};

/** GET /api/time, polled every 60 s; `open` decides between the app and the maintenance screen. */
export function useServerTime() {
  return useQuery({
    queryKey: queryKeys.serverTime,
    queryFn: ({ signal }) => api.get<ServerTimeResponse>('/api/time', signal),
    refetchInterval: SERVER_TIME_POLL_MS,
    retry: 1,
  });
}

/** GET /api/auth/check, rechecked every 5 minutes. */
export function useAuthCheck(options: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.authCheck,
    queryFn: ({ signal }) => api.get<AuthCheckResponse>('/api/auth/check', signal),
    refetchInterval: options.poll === false ? false : STUDENT_SESSION_POLL_MS,
    retry: false,
    staleTime: 0,
  });
}

/** GET /api/admin/auth/admincheck, rechecked every 3 minutes. */
export function useAdminCheck() {
  return useQuery({
    queryKey: queryKeys.adminCheck,
    queryFn: ({ signal }) => api.get<AdminCheckResponse>('/api/admin/auth/admincheck', signal),
    refetchInterval: ADMIN_SESSION_POLL_MS,
    retry: false,
    staleTime: 0,
  });
}
