import { sessionStore } from '../accounts/sessions';
import { mailStaffSetupLink } from '../accounts/staff-setup';
import { recordSecurityEvent } from '../audit/security-events';
import type { AppContext } from '../context';
import { factorStore } from './factors';

/**
 * A locked-out admin's way back (`npm run cli -- mfa:reset --username U`): the factor and its
 * recovery codes go, every session of the admin ends, and the audit log says so. The account then
 * waits for its owner: a one-time link mailed to them sets a new password and the new factor
 * (accounts/staff-setup.ts), so whoever else knows the old password cannot set one up. Answers
 * whether there was a factor and whether the link was mailed.
 */
export async function resetAdminFactor(
  ctx: Pick<AppContext, 'db' | 'signingKey' | 'clock' | 'logger' | 'config' | 'mailer'>,
  staff: { id: string; email: string; name: string; username: string },
  by: string,
): Promise<{ had: boolean; mailed: boolean }> {
  const userId = staff.id;
  const had = await factorStore(ctx.db, ctx.signingKey).reset(userId);
  await sessionStore(ctx.db).endAllOf(userId);
  await recordSecurityEvent(ctx, ctx.clock.now(), { action: 'mfa.reset', userId, details: { by, had } });
  const mailed = await mailStaffSetupLink(ctx, staff);
  return { had, mailed };
}
