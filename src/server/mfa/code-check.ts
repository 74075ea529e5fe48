import {
  ACCOUNT_FAILURE_BUDGET,
  MFA_FAILURES_PER_ACCOUNT,
  SIGNIN_FAILURE_WINDOW_MS,
} from '../../contract/constants';
import { serverMessages } from '../../contract/messages';
import { accountBudget } from '../accounts/account-budget';
import { recordSecurityEvent } from '../audit/security-events';
import type { AppContext } from '../context';
import { tooManyRequests, unauthorized } from '../errors';
import type { FactorStore } from './factors';
import { matchTotp } from './totp';

/**
 * Checks a second-factor code for an admin: six digits against the TOTP secret (one step either
 * side, each step once), anything else against the unused recovery codes (`allowRecovery`).
 *
 * Count first, then check: the attempt takes its place in the admin's 15-minute window
 * (MFA_FAILURES_PER_ACCOUNT, the shared rate counter: memory or Redis) and in the account's day of
 * wrong codes (accounts/account-budget.ts, one UPDATE on the user's row) before any code is
 * compared, so a burst of any size gets at most the limit checked. A right code gives both back.
 * Windows are per account, not per client: only someone who had the password reaches this step.
 */
export async function checkFactorCode(
  ctx: AppContext,
  factors: FactorStore,
  userId: string,
  code: string,
  ip: string,
  { allowRecovery = true, confirm = false }: { allowRecovery?: boolean; confirm?: boolean } = {},
): Promise<{ kind: 'totp' | 'recovery' }> {
  const attempt = await takeAttempt(ctx, userId);
  const now = ctx.clock.now();
  const kind = /^\d+$/.test(code) ? 'totp' : 'recovery';
  let right = false;
  if (kind === 'totp') {
    const factor = await factors.get(userId);
    const step = factor?.secret ? matchTotp(factor.secret, code, now) : null;
    right = step !== null && (await factors.takeStep(userId, step, now, { confirm }));
  } else if (allowRecovery) {
    right = await factors.useRecoveryCode(userId, code, now);
  }
  if (!right) {
    await recordSecurityEvent(ctx, now, {
      action: 'mfa.failure',
      userId,
      ip,
      details: { kind, ...(attempt.locksOnFailure ? { locked: true } : {}) },
    });
    throw unauthorized(serverMessages.mfaCodeWrong);
  }
  await attempt.succeeded();
  if (kind === 'recovery') {
    const left = await factors.recoveryCodesLeft(userId);
    await recordSecurityEvent(ctx, now, { action: 'mfa.recovery-used', userId, ip, details: { left } });
  }
  return { kind };
}

/**
 * The same rule for a passkey at the second step: the attempt is counted in the admin's window and
 * day (the limit wrong codes share) before `check` verifies the assertion; a passkey that signs
 * in gives both back, a refused one is an `mfa.failure` of kind `passkey` and a 401.
 */
export async function checkPasskeyAttempt<T>(
  ctx: AppContext,
  userId: string,
  ip: string,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const attempt = await takeAttempt(ctx, userId);
  const result = await check();
  if (result === undefined) {
    await recordSecurityEvent(ctx, ctx.clock.now(), {
      action: 'mfa.failure',
      userId,
      ip,
      details: { kind: 'passkey', ...(attempt.locksOnFailure ? { locked: true } : {}) },
    });
    throw unauthorized(serverMessages.passkeyFailed);
  }
  await attempt.succeeded();
  return result;
}

const codeBudget = (ctx: AppContext) => accountBudget(ctx.db, 'code', ACCOUNT_FAILURE_BUDGET);

async function takeAttempt(ctx: AppContext, userId: string) {
  const key = `mfa:account:${userId}`;
  const window = await ctx.rateCounter.hit(key, SIGNIN_FAILURE_WINDOW_MS);
  if (window.count > MFA_FAILURES_PER_ACCOUNT) {
    await ctx.rateCounter.giveBack(key);
    throw tooManyRequests(serverMessages.mfaTooManyCodes, Math.ceil(window.resetInMs / 1000));
  }
  const day = await codeBudget(ctx).take(userId, ctx.clock.now());
  if (day > ACCOUNT_FAILURE_BUDGET) {
    await ctx.rateCounter.giveBack(key);
    await codeBudget(ctx).giveBack(userId);
    throw tooManyRequests(serverMessages.accountLocked, Math.ceil(SIGNIN_FAILURE_WINDOW_MS / 1000));
  }
  return {
    locksOnFailure: day === ACCOUNT_FAILURE_BUDGET,
    succeeded: async () => {
      await ctx.rateCounter.giveBack(key);
      await codeBudget(ctx).giveBack(userId);
    },
  };
}
