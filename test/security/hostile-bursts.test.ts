import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_FAILURE_BUDGET,
  MFA_FAILURES_PER_ACCOUNT,
  OTP_MAX_WRONG_TRIES,
  OTP_RESEND_SECONDS,
  SIGNIN_FAILURES_PER_ACCOUNT,
} from '../../src/contract/constants';
import { serverMessages } from '../../src/contract/messages';
import { unlockAccount } from '../../src/server/accounts/account-budget';
import { auditEvents } from '../../src/server/db/schema';
import { SETUP_TRIES_PER_CLIENT } from '../../src/server/mfa/admin-routes';
import { TRACES_PER_ADMIN } from '../../src/server/playback/routes';
import { REINDEX_PER_ADMIN } from '../../src/server/search/routes';
import { heldFactor, PERIOD_MS, totpAt } from '../support/admin-factor';
import { testEngines } from '../support/databases';
import { describeWhenReady, redisMissing } from '../support/preconditions';
import { burst, jsonPost, rawRequest, sendRaw, type RawReply } from '../support/raw-http';
import { insertFinalizedVideo } from '../support/course-fixtures';
import { TestServer } from '../support/test-server';

/**
 * Bursts of 200 parallel requests at each limit, each request sent but its last byte and then all
 * last bytes at once (issue 27): the limits must count before they check, so a burst gets no more
 * guesses checked than a patient attacker. Each burst prints how many guesses were checked.
 */
const BURST = 200;

/** A fresh loopback address per burst: a client of its own as the server sees it (and Redis keys of its own). */
const newClient = () => `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;

const statuses = (replies: RawReply[]) => {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

function suite(label: string, start: () => Promise<TestServer>) {
  describe(`bursts of ${BURST} at every limit (${label})`, () => {
    let server: TestServer;
    beforeAll(async () => void (server = await start()), 120_000);
    afterAll(() => server?.close());

    const failures = async (userId: string, action: string) =>
      (
        await server.ctx.db
          .select({ id: auditEvents.id })
          .from(auditEvents)
          .where(and(eq(auditEvents.actorId, userId), eq(auditEvents.action, action)))
      ).length;

    for (const surface of ['student', 'admin'] as const) {
      it(`sign-in (${surface}): 199 wrong passwords and the right one last check at most ${SIGNIN_FAILURES_PER_ACCOUNT}`, async () => {
        const account =
          surface === 'student' ? await server.createActiveStudent() : await server.createAdmin();
        const path = surface === 'student' ? '/api/signin' : '/api/admin/login';
        const requests = Array.from({ length: BURST }, (_, i) =>
          jsonPost(server.url, path, {
            username: account.username,
            password: i === BURST - 1 ? account.password : `Wrong@${i}pass`,
          }),
        );
        const replies = await burst(server.url, requests, { from: newClient() });
        const checked = replies.filter((r) => r.status === 401).length;
        console.log(
          `[burst] ${label} sign-in ${surface}: ${checked} of ${BURST - 1} wrong passwords checked`,
          statuses(replies),
        );
        expect(replies.every((r) => r.status === 401 || r.status === 429)).toBe(true);
        expect(checked).toBeLessThanOrEqual(SIGNIN_FAILURES_PER_ACCOUNT);
        expect(await failures(account.id, 'sign-in.failure')).toBe(checked);
        expect(replies.at(-1)!.status).toBe(429);
        expect(JSON.parse(replies.at(-1)!.body).message).toBe(serverMessages.tooManySignIns);
      });
    }

    it(`second factor: 199 wrong codes and the right one last check at most ${MFA_FAILURES_PER_ACCOUNT}`, async () => {
      const admin = await server.createAdmin();
      const pending = server.client();
      const first = await pending.adminPassword(admin);
      expect(first.body.next).toBe('totp');
      const { secret } = heldFactor(server.url, admin.username)!;
      const step = Math.floor(server.clock.now().getTime() / PERIOD_MS);
      const right = totpAt(secret, step);
      const valid = new Set([step - 1, step, step + 1].map((s) => totpAt(secret, s)));
      const wrong = Array.from({ length: 1_000_000 }, (_, i) => String(i).padStart(6, '0'))
        .filter((code) => !valid.has(code))
        .slice(0, BURST - 1);
      const requests = [...wrong, right].map((code) =>
        jsonPost(server.url, '/api/admin/login/totp', { code }, pending.token),
      );
      const replies = await burst(server.url, requests, { from: newClient() });
      const checked = replies.filter((r) => r.status === 401).length;
      console.log(
        `[burst] ${label} second factor: ${checked} of ${BURST - 1} wrong codes checked`,
        statuses(replies),
      );
      expect(replies.every((r) => r.status === 401 || r.status === 429)).toBe(true);
      expect(checked).toBeLessThanOrEqual(MFA_FAILURES_PER_ACCOUNT);
      expect(await failures(admin.id, 'mfa.failure')).toBe(checked);
      expect(replies.at(-1)!.status).toBe(429);
      expect(JSON.parse(replies.at(-1)!.body).message).toBe(serverMessages.mfaTooManyCodes);
    });

    it('sign-in: a stranger who spent the limit does not lock the rightful student out of their own address', async () => {
      const student = await server.createActiveStudent();
      const stranger = newClient();
      const wrong = Array.from({ length: 30 }, (_, i) =>
        jsonPost(server.url, '/api/signin', { username: student.username, password: `Wrong@${i}pass` }),
      );
      const replies = await burst(server.url, wrong, { from: stranger });
      expect(replies.filter((r) => r.status === 429).length).toBe(30 - SIGNIN_FAILURES_PER_ACCOUNT);
      const rightful = await sendRaw(
        server.url,
        jsonPost(server.url, '/api/signin', { username: student.username, password: student.password }),
        { from: newClient() },
      );
      expect(rightful.status).toBe(200);
    });

    it(`sign-in: past ${ACCOUNT_FAILURE_BUDGET} failures in a day, a burst gets one check per wait; unlock ends the waits`, async () => {
      const student = await server.createActiveStudent();
      const clients = Array.from(
        { length: ACCOUNT_FAILURE_BUDGET / SIGNIN_FAILURES_PER_ACCOUNT + 2 },
        newClient,
      );
      const guesses = (count: number) =>
        Array.from({ length: count }, (_, i) =>
          jsonPost(server.url, '/api/signin', { username: student.username, password: `Wrong@${i}pass` }),
        );
      let checked = 0;
      for (const from of clients) {
        const replies = await burst(server.url, guesses(SIGNIN_FAILURES_PER_ACCOUNT + 5), { from });
        checked += replies.filter((r) => r.status === 401).length;
      }
      console.log(
        `[burst] ${label} account day budget: ${checked} wrong passwords checked from ${clients.length} addresses`,
      );
      expect(checked).toBe(ACCOUNT_FAILURE_BUDGET);
      expect(await failures(student.id, 'sign-in.slowed')).toBe(1);

      const right = jsonPost(server.url, '/api/signin', {
        username: student.username,
        password: student.password,
      });
      const waiting = await sendRaw(server.url, right, { from: newClient() });
      expect(waiting.status).toBe(429);
      expect(JSON.parse(waiting.body).message).toBe(serverMessages.accountSlowed);
      // Once the wait is over, a burst from a new address gets one guess checked, and the next wait starts.
      const waitMs = Number(waiting.headers['retry-after']) * 1000;
      server.clock.advance(waitMs);
      // Redis keeps its own time: its windows end only as real time passes.
      if (server.ctx.config.redisUrl) await new Promise((r) => setTimeout(r, waitMs));
      const after = await burst(server.url, guesses(BURST), { from: newClient() });
      console.log(`[burst] ${label} past the day budget: one wait over`, statuses(after));
      expect(after.filter((r) => r.status === 401).length).toBe(1);
      expect(await failures(student.id, 'sign-in.slowed')).toBe(2);
      expect((await sendRaw(server.url, right, { from: newClient() })).status).toBe(429);

      await unlockAccount(server.ctx.db, student.id);
      expect((await sendRaw(server.url, right, { from: newClient() })).status).toBe(200);
    });

    it(`one-time code: 199 wrong codes and the right one last compare at most ${OTP_MAX_WRONG_TRIES}, and the password stays`, async () => {
      const student = await server.createStudent();
      const from = newClient();
      const signIn = await server.client().signIn(student);
      expect(signIn.status).toBe(200);
      await server.smtp.waitFor(student.email);
      const code = server.smtp.latestCode(student.email);
      const requests = Array.from({ length: BURST }, (_, i) => {
        const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
        return jsonPost(server.url, '/api/password/reset', {
          username: student.username,
          otp: i === BURST - 1 ? code : wrong,
          newpassword: 'Taken@Over12',
        });
      });
      const mailsBefore = server.smtp.mails.length;
      const replies = await burst(server.url, requests, { from });
      const compared = await failures(student.id, 'code.failure');
      console.log(
        `[burst] ${label} one-time code: ${compared} of ${BURST - 1} wrong codes answered`,
        statuses(replies),
      );
      expect(replies.every((r) => r.status === 400 || r.status === 429)).toBe(true);
      expect(replies.at(-1)!.status).not.toBe(200);
      // Every code attempt that was not refused by the client limit is one failure; only the first five were compared.
      const answered = replies.filter((r) => r.status === 400).length;
      expect(compared).toBe(answered);
      const invalid = replies.filter(
        (r) => r.status === 400 && JSON.parse(r.body).message === serverMessages.otpInvalid,
      );
      expect(invalid.length).toBeLessThanOrEqual(OTP_MAX_WRONG_TRIES - 1);
      const still = await server.client().signIn(student);
      expect(still.status).toBe(200);
      // The client's hundred attempts are the account's day of wrong codes: codes pause, and the
      // student is told why.
      expect(compared).toBe(ACCOUNT_FAILURE_BUDGET);
      expect(await failures(student.id, 'code.frozen')).toBe(1);
      const mail = await server.smtp.waitFor(student.email, mailsBefore);
      expect(mail.subject).toContain('password reset codes paused');
    });

    /** Mails to `email` among the SMTP server's mails after the first `after`. */
    const mailsTo = (email: string, after: number) =>
      server.smtp.mails.slice(after).filter((m) => m.to.some((t) => t.toLowerCase() === email)).length;

    it(`code resend: a burst of ${BURST} from one first-login student mails one code`, async () => {
      const student = await server.createStudent();
      const pending = server.client();
      expect((await pending.signIn(student)).status).toBe(200);
      await server.smtp.waitFor(student.email);
      // The sign-in's code is a minute old: the next may go.
      server.clock.advance(OTP_RESEND_SECONDS * 1000);
      const before = server.smtp.mails.length;
      const requests = Array.from({ length: BURST }, () =>
        jsonPost(server.url, '/api/otp/send', {}, pending.token),
      );
      const replies = await burst(server.url, requests, { from: newClient() });
      const mailed = mailsTo(student.email, before);
      console.log(`[burst] ${label} code resend: ${mailed} of ${BURST} mailed`, statuses(replies));
      expect(mailed).toBe(1);
      expect(replies.filter((r) => r.status === 200).length).toBe(1);
      const refused = replies.filter((r) => r.status === 429);
      expect(refused.length).toBe(BURST - 1);
      expect(refused.every((r) => Number(r.headers['retry-after']) > 0)).toBe(true);
    });

    it(`forgot password: a burst of ${BURST} for one student from ten addresses mails one code`, async () => {
      const student = await server.createActiveStudent();
      const before = server.smtp.mails.length;
      const clients = Array.from({ length: 10 }, newClient);
      const forgot = () => jsonPost(server.url, '/api/password/forgot', { username: student.username });
      const replies = (
        await Promise.all(
          clients.map((from) =>
            burst(server.url, Array.from({ length: BURST / clients.length }, forgot), { from }),
          ),
        )
      ).flat();
      // The mail goes after the answer: wait for the first, then long enough for any other to arrive.
      await server.smtp.waitFor(student.email, before);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const mailed = mailsTo(student.email, before);
      console.log(`[burst] ${label} forgot password: ${mailed} of ${BURST} mailed`, statuses(replies));
      expect(replies.every((r) => r.status === 200 || r.status === 429)).toBe(true);
      expect(mailed).toBe(1);
    });

    it(`re-index: a burst of ${BURST} from one admin gets past the limit at most ${REINDEX_PER_ADMIN} times`, async () => {
      const { client } = await server.adminClient();
      // A video still processing: each request the limit lets through answers 409 (a job is never
      // queued). An unknown id is refused (404) by the route table's scope check before any handler.
      const video = await insertFinalizedVideo(server);
      const path = `/api/admin/videos/${video.id}/index`;
      const requests = Array.from({ length: BURST }, () => jsonPost(server.url, path, {}, client.token));
      const replies = await burst(server.url, requests, { from: newClient() });
      const through = replies.filter((r) => r.status !== 429).length;
      console.log(`[burst] ${label} re-index: ${through} of ${BURST} past the limit`, statuses(replies));
      expect(replies.every((r) => r.status === 409 || r.status === 429)).toBe(true);
      expect(through).toBe(REINDEX_PER_ADMIN);
    });

    it(`trace lookups: a burst of ${BURST} from one admin gets past the limit at most ${TRACES_PER_ADMIN} times`, async () => {
      const { client } = await server.adminClient();
      // A code no session has: each lookup the limit lets through answers 404.
      const lookup = rawRequest('GET', '/api/admin/trace/2345-6789', [
        ['Host', new URL(server.url).host],
        ['Cookie', `token=${client.token}`],
        ['Connection', 'close'],
      ]);
      const replies = await burst(server.url, Array(BURST).fill(lookup), { from: newClient() });
      const through = replies.filter((r) => r.status !== 429).length;
      console.log(`[burst] ${label} trace lookups: ${through} of ${BURST} past the limit`, statuses(replies));
      expect(replies.every((r) => r.status === 404 || r.status === 429)).toBe(true);
      expect(through).toBe(TRACES_PER_ADMIN);
      expect(replies.filter((r) => r.status === 429).every((r) => Number(r.headers['retry-after']) > 0)).toBe(
        true,
      );
    });

    it(`set-up links: ${BURST} wrong links from one client check at most ${SETUP_TRIES_PER_CLIENT}`, async () => {
      const from = newClient();
      const requests = Array.from({ length: BURST }, (_, i) =>
        jsonPost(server.url, '/api/admin/setup', { token: `no-such-link-${i}`, newPassword: 'Guess@12345' }),
      );
      const replies = await burst(server.url, requests, { from });
      const checked = replies.filter((r) => r.status === 401).length;
      console.log(`[burst] ${label} set-up links: ${checked} of ${BURST} checked`, statuses(replies));
      expect(checked).toBe(SETUP_TRIES_PER_CLIENT);
      const refused = replies.filter((r) => r.status === 429);
      expect(refused).toHaveLength(BURST - SETUP_TRIES_PER_CLIENT);
      expect(refused.every((r) => Number(r.headers['retry-after']) > 0)).toBe(true);
    });

    it('reset answers tell no account from an unknown name, also after five wrong codes', async () => {
      const student = await server.createActiveStudent();
      const from = newClient();
      await sendRaw(
        server.url,
        jsonPost(server.url, '/api/password/forgot', { username: student.username }),
        { from },
      );
      await server.smtp.waitFor(student.email);
      const code = server.smtp.latestCode(student.email);
      const wrong = code === '000000' ? '111111' : '000000';
      const answersFor = async (username: string) => {
        const out: string[] = [];
        for (let i = 0; i < OTP_MAX_WRONG_TRIES + 2; i++) {
          const reply = await sendRaw(
            server.url,
            jsonPost(server.url, '/api/password/reset', { username, otp: wrong, newpassword: 'Some@Pass12' }),
            { from },
          );
          out.push(`${reply.status} ${JSON.parse(reply.body).message}`);
        }
        return out;
      };
      expect(await answersFor(`nobody-${randomInt(1e9)}`)).toEqual(await answersFor(student.username));
    });
  });
}

for (const engine of testEngines()) suite(engine, () => TestServer.start({ engine }));

describeWhenReady('bursts with Redis counters', await redisMissing(), () => {
  suite('pglite + Redis', () =>
    TestServer.start({ engine: 'pglite', env: { REDIS_URL: 'redis://127.0.0.1:6379' } }),
  );
});
