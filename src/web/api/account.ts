import { useQuery } from '@tanstack/react-query';
import type { ChangePasswordBody } from '../../contract/mfa';
import { call, calling } from './client';

/** The signed-in admin's own account (/adminaccount): sessions, second factor, password. */
export const accountKeys = {
  all: ['admin', 'account'] as const,
  sessions: ['admin', 'account', 'sessions'] as const,
  mfa: ['admin', 'account', 'mfa'] as const,
};

/** GET /api/admin/sessions: the admin's signed-in sessions, newest first, this one marked. */
export function useOwnSessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: calling('GET /api/admin/sessions', {}, (r) => r.sessions),
  });
}

/** GET /api/admin/mfa: whether a factor is set up, and how many recovery codes are left. */
export function useMfaStatus({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: accountKeys.mfa,
    queryFn: calling('GET /api/admin/mfa', {}),
    enabled,
  });
}

export const accountApi = {
  /** Needs a fresh second factor (the client asks for it); ends the admin's other sessions. */
  changePassword: (body: ChangePasswordBody) => call('POST /api/admin/password', { body }),
  endOtherSessions: () => call('POST /api/admin/sessions/end-others'),
  /** Needs a fresh second factor; the old codes stop working. */
  renewRecoveryCodes: () => call('POST /api/admin/mfa/recovery-codes'),
};
