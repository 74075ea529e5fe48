import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { auditEvents } from '../db/schema';

/** What happened to an account's security, as the audit log and the JSON log lines name it. */
export type SecurityAction =
  | 'sign-in.success'
  | 'sign-in.failure'
  | 'sign-in.slowed'
  | 'code.failure'
  | 'code.frozen'
  | 'account.unlocked'
  | 'admin.created'
  | 'instructor.created'
  | 'instructor.assigned'
  | 'instructor.removed'
  | 'session.ended'
  | 'session.others-ended'
  | 'mfa.enrolled'
  | 'mfa.failure'
  | 'mfa.recovery-used'
  | 'mfa.recovery-renewed'
  | 'mfa.reset'
  | 'mfa.passkey-added'
  | 'mfa.passkey-used'
  | 'mfa.passkey-removed'
  | 'password.changed'
  | 'backup.restored'
  | 'backup.restore-failed';

/** The events a collector should alert on; the others are the ordinary record. */
const WARNINGS = new Set<SecurityAction>([
  'sign-in.failure',
  'sign-in.slowed',
  'code.failure',
  'code.frozen',
  'mfa.failure',
  'mfa.recovery-used',
  'mfa.reset',
  // Changes to how a staff member signs in (mfa/sign-in-changes.ts): a stolen session's first moves.
  'mfa.enrolled',
  'mfa.recovery-renewed',
  'mfa.passkey-added',
  'mfa.passkey-removed',
  'session.others-ended',
  'backup.restored',
  'backup.restore-failed',
]);

export interface SecurityEvent {
  action: SecurityAction;
  /** The account concerned; null for a name that matches no account (the name itself is never kept). */
  userId: string | null;
  ip?: string;
  details?: Record<string, unknown>;
}

/** The log line of a security event alone (where there is no database to write to); answers its details. */
export function logSecurityEvent(
  logger: Pick<Logger, 'info' | 'warn'>,
  event: SecurityEvent,
): Record<string, unknown> {
  const details = { ...event.details, ...(event.ip ? { ip: event.ip } : {}) };
  const level = WARNINGS.has(event.action) ? 'warn' : 'info';
  logger[level]({ security: event.action, userId: event.userId, ...details }, 'security event');
  return details;
}

/**
 * Writes a security event to the audit log and as one log line (for a collector's alerts). Never
 * with a secret: no password, code, token or typed name, which may be a password typed in the
 * wrong field.
 */
export async function recordSecurityEvent(
  ctx: { db: Db; logger: Pick<Logger, 'info' | 'warn'> },
  at: Date,
  event: SecurityEvent,
): Promise<void> {
  const details = logSecurityEvent(ctx.logger, event);
  await ctx.db.insert(auditEvents).values({
    at,
    action: event.action,
    actorId: event.userId,
    details: Object.keys(details).length ? details : null,
  });
}
