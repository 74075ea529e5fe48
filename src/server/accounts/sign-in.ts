import { eq } from 'drizzle-orm';
import {
  SIGNIN_FAILURE_WINDOW_MS,
  SIGNIN_FAILURES_PER_ACCOUNT,
  SIGNIN_FAILURES_PER_IP,
} from '../../contract/constants';
import { serverMessages } from '../../contract/messages';
import type { SignInBody } from '../../contract/auth';
import type { AppContext } from '../context';
import { users, type Role } from '../db/schema';
import { forbidden, tooManyRequests, unauthorized } from '../errors';
import type { OneTimeCodeStore } from './one-time-codes';
import { oneTimeCodeMail } from './mails';
import { findUserByLogin } from './users';
import { verifyPassword } from './passwords';
import type { SessionStore } from './sessions';

export type SignInResult =
  | { kind: 'signed-in'; token: string }
  /** First login: the session may only reset the password; `mailed` says whether a code is on its way. */
  | { kind: 'first-login'; token: string; mailed: boolean };

interface Deps {
  sessions: SessionStore;
  codes: OneTimeCodeStore;
}

/**
 * Checks credentials for the surface the user signs in on (student or admin). Unknown users and wrong
 * passwords get the same answer; failures are counted per account and per IP, and past the limit
 * every attempt is refused until the window passes.
 */
export async function signIn(ctx: AppContext, deps: Deps, input: SignInBody, ip: string, surface: Role) {
  const accountKey = `signin:account:${input.username.toLowerCase()}`;
  const ipKey = `signin:ip:${ip}`;
  const [account, fromIp] = await Promise.all([
    ctx.rateCounter.peek(accountKey),
    ctx.rateCounter.peek(ipKey),
  ]);
  const blocked = [
    account.count >= SIGNIN_FAILURES_PER_ACCOUNT ? account.resetInMs : 0,
    fromIp.count >= SIGNIN_FAILURES_PER_IP ? fromIp.resetInMs : 0,
  ];
  const waitMs = Math.max(...blocked);
  if (waitMs > 0) throw tooManyRequests(serverMessages.tooManySignIns, Math.ceil(waitMs / 1000));

  const user = await findUserByLogin(ctx.db, input.username);
  if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) {
    await Promise.all([
      ctx.rateCounter.hit(accountKey, SIGNIN_FAILURE_WINDOW_MS),
      ctx.rateCounter.hit(ipKey, SIGNIN_FAILURE_WINDOW_MS),
    ]);
    throw unauthorized(serverMessages.badCredentials);
  }
  if (user.role !== surface) {
    throw forbidden(
      surface === 'student' ? serverMessages.adminOnStudentSignIn : serverMessages.studentOnAdminSignIn,
    );
  }
  await ctx.rateCounter.reset(accountKey);

  const now = ctx.clock.now();
  await ctx.db.update(users).set({ lastSignInAt: now }).where(eq(users.id, user.id));
  const maxSessions = ctx.config.maxStudentSessions;
  if (user.role === 'student' && user.firstLogin) {
    const token = await deps.sessions.create(user, 'reset', now, maxSessions);
    const mailed = await sendResetCode(ctx, deps.codes, user, { skipIfRecent: true });
    return { kind: 'first-login', token, mailed } satisfies SignInResult;
  }
  const token = await deps.sessions.create(user, 'full', now, maxSessions);
  return { kind: 'signed-in', token } satisfies SignInResult;
}

/**
 * Issues a code and mails it. Returns false when the mail could not be sent (the code is then
 * discarded so the user may ask again at once). With `skipIfRecent`, a code sent within the resend
 * window is left as it is.
 */
export async function sendResetCode(
  ctx: AppContext,
  codes: OneTimeCodeStore,
  user: { id: string; email: string },
  options: { skipIfRecent?: boolean } = {},
): Promise<boolean> {
  const now = ctx.clock.now();
  if (options.skipIfRecent && (await codes.cooldown(user.id, now)) > 0) return true;
  const code = await codes.issue(user.id, now);
  try {
    await ctx.mailer.send(oneTimeCodeMail(ctx.config.productName, user.email, code));
    return true;
  } catch (error) {
    ctx.logger.warn({ err: error, userId: user.id }, 'could not send a one-time code');
    await codes.discard(user.id);
    return false;
  }
}
