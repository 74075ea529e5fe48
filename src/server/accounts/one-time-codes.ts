import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { oneTimeCodes, users } from '../db/schema';
import {
  OTP_LENGTH,
  OTP_LIFETIME_MINUTES,
  OTP_MAX_WRONG_TRIES,
  OTP_RESEND_SECONDS,
} from '../../contract/constants';
import { oneTimeCodeMail } from './mails';
import { hmac, safeEqual } from './tokens';

/** `none`: the user has no live code (never had one, or it was used, replaced or has expired). */
export type CodeCheck = 'ok' | 'invalid' | 'dead' | 'none';

/** Password-reset codes: 6 digits, 10 minutes, single use, 5 wrong tries, one new code a minute. */
export function oneTimeCodeStore(db: Db, signingKey: Buffer) {
  // Keyed hash: six digits are trivially brute-forced from a plain hash.
  const digest = (userId: string, code: string) => hmac(signingKey, `otp:${userId}:${code}`);

  /** Seconds until `userId` may get another code (0: now), read on `on` (the database or a transaction). */
  async function secondsToWait(on: Db, userId: string, now: Date): Promise<number> {
    const [last] = await on
      .select({ createdAt: oneTimeCodes.createdAt })
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.userId, userId))
      .orderBy(desc(oneTimeCodes.createdAt))
      .limit(1);
    if (!last) return 0;
    const elapsed = (now.getTime() - last.createdAt.getTime()) / 1000;
    return elapsed >= OTP_RESEND_SECONDS ? 0 : Math.ceil(OTP_RESEND_SECONDS - elapsed);
  }

  /** Replaces any earlier code of the user with a fresh one on `on` (a transaction) and returns it. */
  async function replaceCode(on: Db, userId: string, now: Date): Promise<string> {
    const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
    await on.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, userId));
    await on.insert(oneTimeCodes).values({
      userId,
      codeHash: digest(userId, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + OTP_LIFETIME_MINUTES * 60_000),
    });
    return code;
  }

  return {
    /**
     * A fresh code (any earlier one replaced; to be mailed, never stored plain), unless the user got one within OTP_RESEND_SECONDS: then the seconds to
     * wait. The user's row is locked before the last code is read, so parallel requests queue and only
     * the first of a burst finds none recent: the minute is taken in the database, before any mail.
     */
    async issueUnlessRecent(userId: string, now: Date): Promise<{ code: string } | { waitSeconds: number }> {
      return db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        const waitSeconds = await secondsToWait(tx, userId, now);
        return waitSeconds > 0 ? { waitSeconds } : { code: await replaceCode(tx, userId, now) };
      });
    },

    /** Forgets the user's codes, e.g. when the mail carrying one could not be sent. */
    async discard(userId: string) {
      await db.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, userId));
    },

    /**
     * Checks a code; a right one is used up, a wrong one counts toward the limit. The try is taken
     * in the one statement that finds the live code (`wrong_tries < limit` in its WHERE): parallel
     * attempts queue on the row, so a burst gets at most OTP_MAX_WRONG_TRIES codes compared.
     */
    async check(userId: string, code: string, now: Date): Promise<CodeCheck> {
      const live = and(
        eq(oneTimeCodes.userId, userId),
        isNull(oneTimeCodes.usedAt),
        gt(oneTimeCodes.expiresAt, now),
      );
      const [tried] = await db
        .update(oneTimeCodes)
        .set({ wrongTries: sql`${oneTimeCodes.wrongTries} + 1` })
        .where(and(live, lt(oneTimeCodes.wrongTries, OTP_MAX_WRONG_TRIES)))
        .returning({ id: oneTimeCodes.id, codeHash: oneTimeCodes.codeHash, tries: oneTimeCodes.wrongTries });
      if (!tried) {
        const [spent] = await db.select({ id: oneTimeCodes.id }).from(oneTimeCodes).where(live).limit(1);
        return spent ? 'dead' : 'none';
      }
      if (!safeEqual(tried.codeHash, digest(userId, code)))
        return tried.tries >= OTP_MAX_WRONG_TRIES ? 'dead' : 'invalid';
      // Conditional on still unused, so two requests racing with the same code cannot both win.
      const used = await db
        .update(oneTimeCodes)
        .set({ usedAt: now, wrongTries: sql`${oneTimeCodes.wrongTries} - 1` })
        .where(and(eq(oneTimeCodes.id, tried.id), isNull(oneTimeCodes.usedAt)))
        .returning({ id: oneTimeCodes.id });
      return used.length ? 'ok' : 'invalid';
    },
  };
}

export type OneTimeCodeStore = ReturnType<typeof oneTimeCodeStore>;

/** What a request for a new code came to: mailed, the mail failed (no code kept), or the seconds to wait. */
export type CodeMailing = { kind: 'sent' } | { kind: 'failed' } | { kind: 'wait'; seconds: number };

/**
 * Mails `user` a new code unless one went within OTP_RESEND_SECONDS (`issueUnlessRecent` decides,
 * before any mail, so a burst of requests sends one). A mail that fails takes its code back: the
 * student may ask again at once.
 */
export async function mailNewCode(
  ctx: AppContext,
  codes: OneTimeCodeStore,
  user: { id: string; email: string },
): Promise<CodeMailing> {
  const issued = await codes.issueUnlessRecent(user.id, ctx.clock.now());
  if ('waitSeconds' in issued) return { kind: 'wait', seconds: issued.waitSeconds };
  try {
    await ctx.mailer.send(oneTimeCodeMail(ctx.config.productName, user.email, issued.code));
    return { kind: 'sent' };
  } catch (error) {
    ctx.logger.warn({ err: error, userId: user.id }, 'could not send a one-time code');
    await codes.discard(user.id);
    return { kind: 'failed' };
  }
}
