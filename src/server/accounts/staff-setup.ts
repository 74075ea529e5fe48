import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { STAFF_SETUP_LINK_HOURS } from '../../contract/constants';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { hasRow } from '../db/has-row';
import { oneTimeCodes, users } from '../db/schema';
import { staffSetupMail } from './mails';
import { hashPassword } from './passwords';
import { hashToken, newSessionToken } from './tokens';

/**
 * A staff account whose owner must set it up through a one-time link mailed to them (a new
 * instructor, or after `mfa:reset`): until they open it, the password opens nothing (`users.first_login`), so whoever
 * else knows it cannot set up a second factor of their own. The link's token is a one-time code of
 * the account (only its SHA-256 is stored), taken by the UPDATE that checks it.
 */
export async function mailStaffSetupLink(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config' | 'mailer' | 'logger'>,
  staff: { id: string; email: string; name: string; username: string },
): Promise<boolean> {
  const now = ctx.clock.now();
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + STAFF_SETUP_LINK_HOURS * 3600_000);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ firstLogin: true }).where(eq(users.id, staff.id));
    await tx.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, staff.id));
    await tx
      .insert(oneTimeCodes)
      .values({ userId: staff.id, codeHash: hashToken(token), createdAt: now, expiresAt });
  });
  const link = `${ctx.config.publicUrl}/adminsetup#${token}`;
  try {
    await ctx.mailer.send(staffSetupMail(ctx.config.productName, link, staff));
    return true;
  } catch (err) {
    ctx.logger.warn({ err, userId: staff.id }, 'could not mail a set-up link');
    return false;
  }
}

/**
 * Opens a set-up link: the owner's new password is set and the account leaves its waiting state.
 * Answers the staff member, or undefined when the link is unknown, used or expired.
 */
export async function completeStaffSetup(db: Db, token: string, newPassword: string, now: Date) {
  const live = and(
    eq(oneTimeCodes.codeHash, hashToken(token)),
    isNull(oneTimeCodes.usedAt),
    gt(oneTimeCodes.expiresAt, now),
  );
  // A link that opens nothing costs no password hash (argon2 is the expensive part).
  if (!(await hasRow(db, oneTimeCodes, live))) return undefined;
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .update(oneTimeCodes)
      .set({ usedAt: now })
      .where(live)
      .returning({ userId: oneTimeCodes.userId });
    if (!taken) return undefined;
    const [staff] = await tx
      .update(users)
      .set({ passwordHash, firstLogin: false })
      .where(and(eq(users.id, taken.userId), ne(users.role, 'student'), eq(users.firstLogin, true)))
      .returning({ id: users.id, role: users.role });
    return staff;
  });
}
