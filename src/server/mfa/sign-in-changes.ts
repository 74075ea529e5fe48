import type { Authenticated, SessionStore } from '../accounts/sessions';
import { recordSecurityEvent } from '../audit/security-events';
import type { AppContext } from '../context';
import { signInChangedMail, type SignInChange } from './mails';

/**
 * What every change to how a staff member signs in does (a factor set up, added or removed, new
 * recovery codes, the other sessions signed out): the security event (logged at warn), every other
 * session of theirs ended, so a stolen one goes with the change, and a mail to the owner, so a change
 * they did not make does not go unnoticed. The mail is not waited for: a slow or failing SMTP server
 * delays no answer, and a mail that cannot be sent is logged.
 */
export async function recordSignInChange(
  { ctx, sessions }: { ctx: AppContext; sessions: SessionStore },
  session: Authenticated,
  ip: string,
  change: SignInChange,
  details?: Record<string, unknown>,
): Promise<void> {
  const now = ctx.clock.now();
  const userId = session.user.id;
  await recordSecurityEvent(ctx, now, { action: change, userId, ip, details });
  await sessions.endOthersOf(userId, session.sessionId);
  ctx.mailer
    .send(signInChangedMail(ctx.config.productName, session.user, change, now, ip))
    .catch((err: unknown) =>
      ctx.logger.warn({ err, userId, change }, 'could not mail the owner about a change to their sign-in'),
    );
}
