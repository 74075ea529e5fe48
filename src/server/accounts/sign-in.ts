import { eq } from 'drizzle-orm';
import {
  ACCOUNT_BUDGET_WINDOW_MS,
  ACCOUNT_FAILURE_BUDGET,
  SIGNIN_FAILURE_WINDOW_MS,
  SIGNIN_FAILURES_PER_ACCOUNT,
  SIGNIN_FAILURES_PER_IP,
} from '../../contract/constants';
import { serverMessages } from '../../contract/messages';
import type { SignInBody } from '../../contract/auth';
import type { AppContext } from '../context';
import { users, type SessionScope } from '../db/schema';
import { forbidden, tooManyRequests, unauthorized } from '../errors';
import { mailNewCode, type OneTimeCodeStore } from './one-time-codes';
import { findUserByLogin } from './users';
import { accountBudget, signInWaitMs } from './account-budget';
import { recordSecurityEvent } from '../audit/security-events';
import { verifyPassword } from './passwords';
import type { SessionClient, SessionStore } from './sessions';

export type SignInResult =
  | { kind: 'signed-in'; token: string; scope: SessionScope }
  /** First login: the session may only reset the password; `mailed` says whether a code is on its way. */
  | { kind: 'first-login'; token: string; mailed: boolean };

interface Deps {
  sessions: SessionStore;
  codes: OneTimeCodeStore;
  /**
   * The scope an admin's right password opens: `full`, or a step still to take (the second factor,
   * or setting one up). Given by the admin sign-in (mfa/); unset, the password alone signs in.
   */
  adminScope?: (userId: string) => Promise<SessionScope>;
}

/**
 * Checks credentials for the surface the user signs in on (student or admin). Unknown users and wrong
 * passwords get the same answer. Every attempt is counted before its password is checked, in
 * `guardSignIn`'s windows, so a burst of parallel attempts gets no more checks than the limits.
 */
export async function signIn(
  ctx: AppContext,
  deps: Deps,
  input: SignInBody,
  client: SessionClient,
  surface: 'student' | 'admin',
) {
  const { ip } = client;
  const attempt = await guardSignIn(ctx, input.username, ip);
  const { user } = attempt;
  if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) {
    const now = ctx.clock.now();
    await recordSecurityEvent(ctx, now, { action: 'sign-in.failure', userId: user?.id ?? null, ip });
    if (attempt.waitsAfterFailure && user) {
      const details = { waitSeconds: attempt.waitsAfterFailure / 1000 };
      await recordSecurityEvent(ctx, now, { action: 'sign-in.slowed', userId: user.id, ip, details });
    }
    throw unauthorized(serverMessages.badCredentials);
  }
  await attempt.succeeded();
  // Instructors sign in where admins do, with the same second factor.
  if ((user.role === 'student') !== (surface === 'student')) {
    throw forbidden(
      surface === 'student' ? serverMessages.adminOnStudentSignIn : serverMessages.studentOnAdminSignIn,
    );
  }
  // A staff account waiting for its mailed set-up link (accounts/staff-setup.ts): the password opens nothing.
  if (user.role !== 'student' && user.firstLogin) throw forbidden(serverMessages.staffSetupPending);

  const now = ctx.clock.now();
  await ctx.db.update(users).set({ lastSignInAt: now }).where(eq(users.id, user.id));
  await recordSecurityEvent(ctx, now, { action: 'sign-in.success', userId: user.id, ip });
  const maxSessions = ctx.config.maxStudentSessions;
  if (user.role === 'student' && user.firstLogin) {
    const token = await deps.sessions.create(user, 'reset', now, maxSessions, { client });
    // A code sent within the resend minute is left as it is (the first sign-in of a burst mails it).
    const mailed = (await mailNewCode(ctx, deps.codes, user)).kind !== 'failed';
    return { kind: 'first-login', token, mailed } satisfies SignInResult;
  }
  const scope = user.role !== 'student' && deps.adminScope ? await deps.adminScope(user.id) : 'full';
  const token = await deps.sessions.create(user, scope, now, maxSessions, { client });
  return { kind: 'signed-in', token, scope } satisfies SignInResult;
}

/**
 * Finds the account and takes the attempt's place in each window before the password is checked,
 * or refuses it (429):
 * - this client (100 per 15 minutes), whatever the account: first, so a client past it costs no
 *   query and makes no key for the names it tries (a key per new name grew the counters without
 *   bound);
 * - the account from this client (10 per 15 minutes): slows a guesser without locking the
 *   rightful user out from their own address;
 * - the account's day (100, accounts/account-budget.ts): past it the account slows down for every
 *   client but is never locked. Each attempt waits for the one before (`signInWaitMs`: 5 s,
 *   doubled per failure, at most 5 minutes): the first to come after the wait is checked and opens
 *   the next, the others are refused. So a guesser gets one check per wait, and the right password
 *   (and second factor) still signs in after it. `npm run cli -- unlock USER` ends the waits.
 * Keys name the account itself, not the typed name (`Sam` and `sam` are one account); a name that
 * matches no account is counted by the name in the same windows, so it answers alike.
 * A refused attempt gives its places back (it checked nothing); so does one whose password was
 * right, but for its place in the wait: the next attempt still waits.
 */
async function guardSignIn(ctx: AppContext, typed: string, ip: string) {
  const taken: string[] = [];
  let budgetTakenOf: string | undefined;
  const giveBack = async () => {
    await Promise.all(taken.map((key) => ctx.rateCounter.giveBack(key)));
    if (budgetTakenOf) await signInBudget(ctx).giveBack(budgetTakenOf);
  };
  const take = async (key: string, ms: number) => {
    const window = await ctx.rateCounter.hit(key, ms);
    taken.push(key);
    return window;
  };
  let refused = false;
  const refuse = async (message: string, resetInMs: number) => {
    refused = true;
    await giveBack();
    return tooManyRequests(message, Math.ceil(resetInMs / 1000));
  };
  try {
    return await takePlaces();
  } catch (error) {
    // An error before any check (the database away: 503) checked nothing either: its places go
    // back, so a client retrying through an outage is not refused for it afterwards.
    if (!refused) await giveBack().catch(() => {});
    throw error;
  }

  async function takePlaces() {
    const client = await take(`signin:ip:${ip}`, SIGNIN_FAILURE_WINDOW_MS);
    if (client.count > SIGNIN_FAILURES_PER_IP)
      throw await refuse(serverMessages.tooManySignIns, client.resetInMs);
    const user = await findUserByLogin(ctx.db, typed);
    const account = user ? user.id : `name:${typed.toLowerCase()}`;
    const pair = await take(`signin:pair:${account}:${ip}`, SIGNIN_FAILURE_WINDOW_MS);
    if (pair.count > SIGNIN_FAILURES_PER_ACCOUNT)
      throw await refuse(serverMessages.tooManySignIns, pair.resetInMs);

    // Unknown names have no row: their day is a counter like the others.
    let day: number;
    if (user) {
      day = await signInBudget(ctx).take(user.id, ctx.clock.now());
      budgetTakenOf = user.id;
    } else {
      day = (await take(`signin:day:${account}`, ACCOUNT_BUDGET_WINDOW_MS)).count;
    }
    const waitMs = signInWaitMs(day);
    if (waitMs > 0) {
      const key = `signin:wait:${account}`;
      const wait = await ctx.rateCounter.hit(key, waitMs);
      if (wait.count > 1) {
        await ctx.rateCounter.giveBack(key);
        throw await refuse(serverMessages.accountSlowed, wait.resetInMs);
      }
    }
    // This attempt, if it fails, is the day's budget-th or a later one: the account waits after it.
    return { user, succeeded: giveBack, waitsAfterFailure: waitMs };
  }
}

const signInBudget = (ctx: AppContext) => accountBudget(ctx.db, 'sign-in', ACCOUNT_FAILURE_BUDGET);
