import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_FAILURE_BUDGET,
  SIGNIN_FAILURES_PER_ACCOUNT,
  SIGNIN_FAILURES_PER_IP,
  SIGNIN_WAIT_MAX_MS,
} from '../../contract/constants';
import { serverMessages } from '../../contract/messages';
import { testEngines } from '../../../test/support/databases';
import { burst, jsonPost, sendRaw, type RawReply } from '../../../test/support/raw-http';
import { suiteServer } from '../../../test/support/test-server';
import { MemoryRateCounter } from '../rate-limit/rate-counter';

/** A loopback address of its own: another client, as the server sees it. */
const newClient = () => `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;

const message = (reply: RawReply) => (JSON.parse(reply.body) as { message: string }).message;
const retryAfter = (reply: RawReply) => Number(reply.headers['retry-after']);

describe.each(testEngines())('sign-in limits (%s)', (engine) => {
  const server = suiteServer({ engine });

  const signIn = (path: string, body: { username: string; password: string }, from = newClient()) =>
    sendRaw(server.url, jsonPost(server.url, path, body), { from });

  /** The account's day of failures, spent as the issue measured it: ten from each of ten addresses. */
  async function spendDayBudget(path: string, username: string) {
    const addresses = ACCOUNT_FAILURE_BUDGET / SIGNIN_FAILURES_PER_ACCOUNT;
    for (let a = 0; a < addresses; a++) {
      const guesses = Array.from({ length: SIGNIN_FAILURES_PER_ACCOUNT }, (_, i) =>
        jsonPost(server.url, path, { username, password: `Wrong@${a}-${i}` }),
      );
      const replies = await burst(server.url, guesses, { from: newClient() });
      expect(replies.map((r) => r.status)).toEqual(guesses.map(() => 401));
    }
  }

  /** Spends the account's day, then tries the right password from an eleventh address: the wait, in seconds. */
  async function waitPastBudget(path: string, account: { username: string; password: string }) {
    await spendDayBudget(path, account.username);
    const early = await signIn(path, account);
    expect(early.status).toBe(429);
    expect(message(early)).toBe(serverMessages.accountSlowed);
    expect(retryAfter(early)).toBeGreaterThan(0);
    expect(retryAfter(early)).toBeLessThanOrEqual(SIGNIN_WAIT_MAX_MS / 1000);
    return retryAfter(early);
  }

  it('a flood of new names from one address ends at its window, without a counter per name', async () => {
    const counter = server.ctx.rateCounter;
    if (!(counter instanceof MemoryRateCounter)) throw new Error('the suite runs the default memory counter');
    const from = newClient();
    const flood = (prefix: string, count: number) =>
      burst(
        server.url,
        Array.from({ length: count }, (_, i) =>
          jsonPost(server.url, '/api/signin', { username: `${prefix}-${i}`, password: 'Wrong@pass1' }),
        ),
        { from },
      );
    const spent = await flood(`ghost-${randomInt(1e9)}`, SIGNIN_FAILURES_PER_IP);
    expect(spent.every((r) => r.status === 401)).toBe(true);
    const keys = counter.size;

    const refused = await flood(`ghost-${randomInt(1e9)}`, 200);
    expect(refused.every((r) => r.status === 429)).toBe(true);
    expect(counter.size - keys).toBe(0);
    expect(new Set(refused.map(message))).toEqual(new Set([serverMessages.tooManySignIns]));
    expect(refused.every((r) => retryAfter(r) > 0)).toBe(true);
  });

  it('past the day budget from ten addresses, the right password from an eleventh waits, then signs in', async () => {
    const student = await server.createActiveStudent();
    const firstWait = await waitPastBudget('/api/signin', student);

    // After the wait one guess is checked, and the next attempt waits longer.
    server.clock.advance(firstWait * 1000);
    expect((await signIn('/api/signin', { ...student, password: 'Wrong@after1' })).status).toBe(401);
    const again = await signIn('/api/signin', student);
    expect(again.status).toBe(429);
    expect(retryAfter(again)).toBeGreaterThan(firstWait);

    server.clock.advance(retryAfter(again) * 1000);
    const signedIn = await signIn('/api/signin', student);
    expect(signedIn.status).toBe(200);
    expect(message(signedIn)).toBe(serverMessages.signInSuccess);
  });

  it('past the day budget, an admin with the right password and second factor signs in after the wait', async () => {
    const admin = await server.createAdmin();
    server.clock.advance((await waitPastBudget('/api/admin/login', admin)) * 1000);
    const signedIn = await server.client().adminLogin(admin);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.message).toBe(serverMessages.mfaSignedIn);
  });
});
