import { eq } from 'drizzle-orm';
import { serverMessages } from '../../contract/messages';
import type { ResetPasswordBody } from '../../contract/auth';
import type { AppContext } from '../context';
import { auditEvents, users } from '../db/schema';
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../errors';
import type { OneTimeCodeStore } from './one-time-codes';
import { hashPassword } from './passwords';
import type { Authenticated, SessionStore } from './sessions';
import { findUserByLogin } from './users';
import { accountBudget } from './account-budget';
import { codesFrozenMails } from './mails';
import { recordSecurityEvent } from '../audit/security-events';
import {
  ACCOUNT_BUDGET_WINDOW_MS,
  ACCOUNT_FAILURE_BUDGET,
  OTP_LIFETIME_MINUTES,
  OTP_MAX_WRONG_TRIES,
  OTP_RESEND_SECONDS,
  SIGNIN_FAILURES_PER_IP,
} from '../../contract/constants';

interface Deps {
  sessions: SessionStore;
  codes: OneTimeCodeStore;
}

/**
 * Sets a new password with a mailed code: for the signed-in student (first login), or, without a
 * session, for the student named by `username` (forgot password). Ends every session of the user.
 * The answers never tell a student's account from an unknown name: a name without a live code,
 * unknown or a student's, answers as a live code would (refuseWithoutCode), and an unknown name has
 * a day's budget of wrong codes as an account has; an account past it answers as a dead code (the
 * student and the admins are mailed why).
 */
export async function resetPassword(
  ctx: AppContext,
  deps: Deps,
  auth: Authenticated | null,
  body: ResetPasswordBody,
  ip: string,
): Promise<void> {
  await takeClientAttempt(ctx, ip);
  let student: { id: string; email: string; name: string; username: string } | undefined;
  if (auth) {
    if (auth.user.role !== 'student') throw forbidden(serverMessages.studentsOnly);
    student = auth.user;
  } else if (body.username) {
    const user = await findUserByLogin(ctx.db, body.username);
    if (!user || user.role !== 'student') {
      const name = unknownName(body.username);
      const day = await ctx.rateCounter.hit(`code:day:${name}`, ACCOUNT_BUDGET_WINDOW_MS);
      if (day.count > ACCOUNT_FAILURE_BUDGET) throw badRequest(serverMessages.otpDead);
      return refuseWithoutCode(ctx, name);
    }
    student = user;
  } else {
    throw unauthorized();
  }

  const now = ctx.clock.now();
  const budget = accountBudget(ctx.db, 'code', ACCOUNT_FAILURE_BUDGET);
  const spent = await budget.take(student.id, now);
  if (spent > ACCOUNT_FAILURE_BUDGET) throw badRequest(serverMessages.otpDead);
  const check = await deps.codes.check(student.id, body.otp, now);
  if (check !== 'ok') {
    await recordSecurityEvent(ctx, now, { action: 'code.failure', userId: student.id, ip });
    if (spent === ACCOUNT_FAILURE_BUDGET) await freezeCodes(ctx, student, now, ip);
    if (check === 'none') return refuseWithoutCode(ctx, student.id);
    throw badRequest(check === 'dead' ? serverMessages.otpDead : serverMessages.otpInvalid);
  }
  await budget.giveBack(student.id);

  const passwordHash = await hashPassword(body.newpassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, firstLogin: false }).where(eq(users.id, student.id));
    await tx
      .insert(auditEvents)
      .values({ at: now, actorId: student.id, studentId: student.id, action: 'password.reset' });
  });
  await deps.sessions.endAllOf(student.id);
  await deps.codes.discard(student.id);
}

/** How the counters name what was typed when it is no student's name (`Sam` and `sam` are one). */
const unknownName = (typed: string) => `name:${typed.toLowerCase()}`;

/**
 * "Forgot password" for a name that is no student's: its tries start again, as a student's new code
 * would start them, and no more than a student's codes (one in OTP_RESEND_SECONDS), so the reset
 * answers after it are the ones a student would get.
 */
export async function pretendNewCode(ctx: AppContext, typed: string): Promise<void> {
  const name = unknownName(typed);
  const issued = await ctx.rateCounter.hit(`code:issued:${name}`, OTP_RESEND_SECONDS * 1000);
  if (issued.count === 1) await ctx.rateCounter.reset(`code:none:${name}`);
}

/**
 * The answer to a code for a name without a live code, `name` an unknown name or a student's id:
 * the tries are counted as a live code counts them, so the fifth within a code's lifetime turns
 * dead, as it would for a student with a code.
 */
async function refuseWithoutCode(ctx: AppContext, name: string): Promise<never> {
  const tries = await ctx.rateCounter.hit(`code:none:${name}`, OTP_LIFETIME_MINUTES * 60_000);
  throw badRequest(tries.count >= OTP_MAX_WRONG_TRIES ? serverMessages.otpDead : serverMessages.otpInvalid);
}

/** As many as sign-in allows a client: a code a minute and five tries each is far below it. */
const RESETS_PER_CLIENT = SIGNIN_FAILURES_PER_IP;
const RESET_WINDOW_MS = 15 * 60_000;

/** Code attempts from one client, whatever the account: counted before anything is checked. */
async function takeClientAttempt(ctx: AppContext, ip: string): Promise<void> {
  const { count, resetInMs } = await ctx.rateCounter.hit(`code:ip:${ip}`, RESET_WINDOW_MS);
  if (count > RESETS_PER_CLIENT)
    throw tooManyRequests(serverMessages.tooManyRequests, Math.ceil(resetInMs / 1000));
}

/** The account's day of wrong codes is spent: audit it, and tell the student and every admin. */
async function freezeCodes(
  ctx: AppContext,
  student: { id: string; email: string; name: string; username: string },
  now: Date,
  ip: string,
): Promise<void> {
  await recordSecurityEvent(ctx, now, { action: 'code.frozen', userId: student.id, ip });
  const admins = await ctx.db.select({ email: users.email }).from(users).where(eq(users.role, 'admin'));
  const mails = codesFrozenMails(
    ctx.config.productName,
    student,
    admins.map((a) => a.email),
  );
  const sent = await Promise.allSettled(mails.map((mail) => ctx.mailer.send(mail)));
  for (const result of sent)
    if (result.status === 'rejected')
      ctx.logger.warn({ err: result.reason, userId: student.id }, 'could not mail about frozen codes');
}
