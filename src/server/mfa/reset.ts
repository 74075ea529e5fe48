import { sessionStore } from '../accounts/sessions';
import { recordSecurityEvent } from '../audit/security-events';
import type { AppContext } from '../context';
import { factorStore } from './factors';

/**
 * A locked-out admin's way back (`npm run cli -- mfa:reset --username U`): the factor and its
 * recovery codes go, every session of the admin ends, and the audit log says so. With
 * ADMIN_MFA=required the next sign-in sets up a new factor. Answers whether there was a factor.
 */
export async function resetAdminFactor(
  ctx: Pick<AppContext, 'db' | 'signingKey' | 'clock' | 'logger'>,
  userId: string,
  by: string,
): Promise<boolean> {
  const had = await factorStore(ctx.db, ctx.signingKey).reset(userId);
  await sessionStore(ctx.db).endAllOf(userId);
  await recordSecurityEvent(ctx, ctx.clock.now(), { action: 'mfa.reset', userId, details: { by, had } });
  return had;
}
