import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT } from '../../contract/constants';
import type { Db } from '../db/client';
import { adminFactors, adminPasskeys, adminRecoveryCodes } from '../db/schema';
import { newTotpSecret } from './totp';
import { secretBox } from './secret-box';

/** Recovery codes are 10 characters of base32 (50 bits), shown as `xxxxx-xxxxx`. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Admins' second factors in the database: the sealed TOTP secret and the recovery codes. Every
 * "use once" is one conditional UPDATE, so parallel requests cannot take the same step or code twice.
 */
export function factorStore(db: Db, signingKey: Buffer) {
  const box = secretBox(signingKey);
  const codeKey = Buffer.from(
    hkdfSync('sha256', signingKey, Buffer.alloc(0), 'lectern recovery codes v1', 32),
  );
  const hashCode = (userId: string, code: string) =>
    createHmac('sha256', codeKey).update(`${userId}\0${code}`).digest('base64url');

  return {
    /** The admin's factor: its secret opened, and whether it was confirmed; undefined when none. */
    async get(userId: string) {
      const [row] = await db.select().from(adminFactors).where(eq(adminFactors.userId, userId));
      if (!row) return undefined;
      return { secret: box.open(userId, row.secret), confirmed: row.confirmedAt !== null };
    },

    /**
     * A new secret for an admin setting up the factor, replacing an unconfirmed one; undefined
     * when a confirmed factor exists (it is reset first: `mfa:reset`).
     */
    async begin(userId: string, now: Date): Promise<string | undefined> {
      const secret = newTotpSecret();
      const sealed = box.seal(userId, secret);
      const [row] = await db
        .insert(adminFactors)
        .values({ userId, secret: sealed, createdAt: now })
        .onConflictDoUpdate({
          target: adminFactors.userId,
          set: { secret: sealed, lastStep: null, createdAt: now },
          setWhere: isNull(adminFactors.confirmedAt),
        })
        .returning({ userId: adminFactors.userId });
      return row ? secret : undefined;
    },

    /**
     * Takes TOTP step `step` for the admin: true once per step, and only past the last step taken
     * (a code is never accepted twice, nor an older one after a newer). With `confirm`, also marks
     * an unconfirmed factor confirmed (setting it up); without, the factor must be confirmed.
     */
    async takeStep(userId: string, step: number, now: Date, { confirm = false } = {}): Promise<boolean> {
      const rows = await db
        .update(adminFactors)
        .set(confirm ? { lastStep: step, confirmedAt: now } : { lastStep: step })
        .where(
          and(
            eq(adminFactors.userId, userId),
            confirm ? isNull(adminFactors.confirmedAt) : isNotNull(adminFactors.confirmedAt),
            or(isNull(adminFactors.lastStep), lt(adminFactors.lastStep, step)),
          ),
        )
        .returning({ userId: adminFactors.userId });
      return rows.length === 1;
    },

    /** Ten new recovery codes in place of the old ones; returned in clear this once. */
    async newRecoveryCodes(userId: string, now: Date): Promise<string[]> {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
        [...randomBytes(10)].map((b) => ALPHABET[b % 32]).join(''),
      );
      await db.transaction(async (tx) => {
        await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId));
        await tx
          .insert(adminRecoveryCodes)
          .values(codes.map((code) => ({ userId, codeHash: hashCode(userId, code), createdAt: now })));
      });
      return codes.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`);
    },

    /** Uses a recovery code (as typed, normalized: no dashes, lower case); true once per code. */
    async useRecoveryCode(userId: string, code: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(adminRecoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(adminRecoveryCodes.userId, userId),
            eq(adminRecoveryCodes.codeHash, hashCode(userId, code)),
            isNull(adminRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: adminRecoveryCodes.id });
      return rows.length === 1;
    },

    async recoveryCodesLeft(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(adminRecoveryCodes)
        .where(and(eq(adminRecoveryCodes.userId, userId), isNull(adminRecoveryCodes.usedAt)));
      return row?.n ?? 0;
    },

    /** Removes the factor, the passkeys and the recovery codes (`npm run cli -- mfa:reset`); true when there was a factor. */
    async reset(userId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId));
        const keys = await tx
          .delete(adminPasskeys)
          .where(eq(adminPasskeys.userId, userId))
          .returning({ id: adminPasskeys.id });
        const gone = await tx
          .delete(adminFactors)
          .where(eq(adminFactors.userId, userId))
          .returning({ userId: adminFactors.userId });
        return gone.length > 0 || keys.length > 0;
      });
    },
  };
}

export type FactorStore = ReturnType<typeof factorStore>;
