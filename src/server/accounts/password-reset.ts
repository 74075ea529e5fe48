import { eq } from 'drizzle-orm';
import { serverMessages } from '../../contract/messages';
import type { ResetPasswordBody } from '../../contract/auth';
import type { AppContext } from '../context';
import { auditEvents, users } from '../db/schema';
import { badRequest, forbidden, unauthorized } from '../errors';
import type { OneTimeCodeStore } from './one-time-codes';
import { hashPassword } from './passwords';
import type { Authenticated, SessionStore } from './sessions';
import { findUserByLogin } from './users';

interface Deps {
  sessions: SessionStore;
  codes: OneTimeCodeStore;
}

/**
 * Sets a new password with a mailed code: for the signed-in student (first login), or, without a
 * session, for the student named by `username` (forgot password). Ends every session of the user.
 */
export async function resetPassword(
  ctx: AppContext,
  deps: Deps,
  auth: Authenticated | null,
  body: ResetPasswordBody,
): Promise<void> {
  let student: { id: string } | undefined;
  if (auth) {
    if (auth.user.role !== 'student') throw forbidden(serverMessages.studentsOnly);
    student = auth.user;
  } else if (body.username) {
    const user = await findUserByLogin(ctx.db, body.username);
    // An unknown or non-student name reads like a wrong code: the answer must not reveal accounts.
    if (!user || user.role !== 'student') throw badRequest(serverMessages.otpInvalid);
    student = user;
  } else {
    throw unauthorized();
  }

  const now = ctx.clock.now();
  const check = await deps.codes.check(student.id, body.otp, now);
  if (check === 'dead') throw badRequest(serverMessages.otpDead);
  if (check === 'invalid') throw badRequest(serverMessages.otpInvalid);

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
