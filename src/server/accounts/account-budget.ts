import { and, eq, gt, sql } from 'drizzle-orm';
import {
  ACCOUNT_BUDGET_WINDOW_MS,
  ACCOUNT_FAILURE_BUDGET,
  SIGNIN_WAIT_FIRST_MS,
  SIGNIN_WAIT_MAX_MS,
} from '../../contract/constants';
import type { Db } from '../db/client';
import { users } from '../db/schema';

/** Which of an account's failure budgets: passwords at sign-in, or one-time codes. */
export type BudgetKind = 'sign-in' | 'code';

/** The row's fields of each budget: its count and when its window started. */
const FIELDS = {
  'sign-in': ['signInFailures', 'signInFailuresSince'],
  code: ['codeFailures', 'codeFailuresSince'],
} as const;

/**
 * An account's failures over a day, in its own row so that every node and the CLI (`unlock`) see
 * one count. An attempt takes its place in one UPDATE before the password or code is checked, so
 * parallel attempts queue on the row and a burst of any size gets at most the budget checked; a
 * right password or code gives its place back.
 */
export function accountBudget(db: Db, kind: BudgetKind, limit: number) {
  const [countField, sinceField] = FIELDS[kind];
  const count = users[countField];
  const since = users[sinceField];
  return {
    /** Takes one attempt; the count after it (over `limit`: refuse without checking anything). */
    async take(userId: string, now: Date): Promise<number> {
      const windowStart = new Date(now.getTime() - ACCOUNT_BUDGET_WINDOW_MS);
      const fresh = sql`${since} is null or ${since} <= ${windowStart}`;
      const [row] = await db
        .update(users)
        .set({
          [countField]: sql`case when ${fresh} then 1 else ${count} + 1 end`,
          [sinceField]: sql`case when ${fresh} then ${now} else ${since} end`,
        })
        .where(eq(users.id, userId))
        .returning({ count });
      return row?.count ?? limit + 1;
    },

    /** Gives back an attempt that succeeded (it was no failure). */
    async giveBack(userId: string): Promise<void> {
      await db
        .update(users)
        .set({ [countField]: sql`greatest(${count} - 1, 0)` })
        .where(and(eq(users.id, userId), gt(count, 0)));
    },
  };
}

/**
 * How long an account's next sign-in waits after an attempt that was its `failures`-th of the day:
 * nothing within the budget, then SIGNIN_WAIT_FIRST_MS doubled with each further failure, at most
 * SIGNIN_WAIT_MAX_MS. A guesser past the budget gets one check per wait (about 300 a day at the
 * cap); the rightful user waits at most the cap.
 */
export function signInWaitMs(failures: number): number {
  if (failures < ACCOUNT_FAILURE_BUDGET) return 0;
  return Math.min(SIGNIN_WAIT_MAX_MS, SIGNIN_WAIT_FIRST_MS * 2 ** (failures - ACCOUNT_FAILURE_BUDGET));
}

/** `npm run cli -- unlock USER`: both budgets start again from zero (and sign-in's waits end). */
export async function unlockAccount(db: Db, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ signInFailures: 0, signInFailuresSince: null, codeFailures: 0, codeFailuresSince: null })
    .where(eq(users.id, userId));
}
