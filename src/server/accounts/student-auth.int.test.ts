import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_FAILURE_BUDGET, OTP_LIFETIME_MINUTES, OTP_MAX_WRONG_TRIES } from '../../contract/constants';
import { serverMessages, validation } from '../../contract/messages';
import { testEngines } from '../../../test/support/databases';
import { jsonPost, sendRaw } from '../../../test/support/raw-http';
import type { TestClient } from '../../../test/support/http-client';
import { suiteServer } from '../../../test/support/test-server';

describe.each(testEngines())('student sign-in and first-login reset (%s)', (engine) => {
  const server = suiteServer({ engine });

  /** Asks for a new one-time code on the client's session (sent: 200) and reads it from the mail. */
  async function resendCode(client: TestClient, email: string) {
    const count = server.smtp.mails.length;
    const resend = await client.post('/api/otp/send');
    expect(resend.status).toBe(200);
    await server.smtp.waitFor(email, count);
    return server.smtp.latestCode(email);
  }

  /** A new student's first sign-in, and the one-time code it mailed them. */
  async function firstSignIn() {
    const student = await server.createStudent();
    const client = server.client();
    await client.signIn(student);
    await server.smtp.waitFor(student.email);
    return { student, client, code: server.smtp.latestCode(student.email) };
  }

  it('answers an unknown user and a wrong password with the same 401', async () => {
    const student = await server.createActiveStudent();
    const unknown = await server.client().signIn({ username: 'nobody', password: 'Whatever@1' });
    const wrong = await server.client().signIn({ username: student.username, password: 'Wrong@1234' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.message).toBe(serverMessages.badCredentials);
    expect(unknown.headers.getSetCookie()).toEqual([]);
  });

  it('signs in by username or e-mail in any case and sets an HttpOnly session cookie', async () => {
    const student = await server.createActiveStudent();
    for (const login of [student.username.toUpperCase(), student.email.toUpperCase()]) {
      const client = server.client();
      const res = await client.signIn({ username: login, password: student.password });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(serverMessages.signInSuccess);
      expect(res.body).not.toHaveProperty('token');
      const cookie = res.headers.getSetCookie()[0]!;
      expect(cookie).toMatch(/^token=[\w-]{43};/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).not.toMatch(/Secure/); // plain HTTP: see http/session-cookie.int.test.ts
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Max-Age=86400/);
      const check = await client.get('/api/auth/check');
      expect(check.body).toEqual({ valid: true, role: 'student', firstlogin: false });
    }
  });

  it('refuses admin accounts with 403 on the student sign-in', async () => {
    const admin = await server.createAdmin();
    const res = await server.client().signIn(admin);
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('walks a first login through the mailed code to a new password', async () => {
    const student = await server.createStudent();
    const client = server.client();
    const mailsBefore = server.smtp.mails.length;

    const signIn = await client.signIn(student);
    expect(signIn.status).toBe(200);
    expect(signIn.body.message).toContain('First Sign-in');
    expect(await client.get('/api/auth/check').then((r) => r.body)).toEqual({
      valid: true,
      role: 'student',
      firstlogin: true,
    });

    const mail = await server.smtp.waitFor(student.email, mailsBefore);
    expect(mail.subject).toContain('Lectern');
    expect(mail.text).toMatch(/valid for 10 minutes/);
    const code = server.smtp.latestCode(student.email);

    const weak = await client.resetPassword(code, 'password');
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe(validation.password);

    const reset = await client.resetPassword(code, 'Better@Pass1');
    expect(reset.status).toBe(200);
    // The reset ends the session: the student signs in again with the new password.
    expect((await client.get('/api/auth/check')).body).toEqual({ valid: false });
    const old = await server.client().signIn(student);
    expect(old.status).toBe(401);
    const again = await client.signIn({ username: student.username, password: 'Better@Pass1' });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe(serverMessages.signInSuccess);
  });

  it('accepts a code once only', async () => {
    const { student, client, code } = await firstSignIn();
    expect((await client.resetPassword(code, 'First@Pass1')).status).toBe(200);

    const forgot = server.client();
    const reuse = await forgot.post('/api/password/reset', {
      username: student.username,
      otp: code,
      newpassword: 'Second@Pass1',
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.message).toBe(serverMessages.otpInvalid);
  });

  it('lets a code expire after 10 minutes', async () => {
    const { client, code } = await firstSignIn();
    server.clock.advance(10 * 60_000 + 1_000);
    try {
      const res = await client.resetPassword(code, 'Late@Pass12');
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(serverMessages.otpInvalid);
    } finally {
      server.clock.advance(-(10 * 60_000 + 1_000));
    }
  });

  it('kills a code at the fifth wrong try, even for the right code afterwards', async () => {
    const { client, code } = await firstSignIn();
    const wrong = code === '000000' ? '111111' : '000000';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push((await client.resetPassword(wrong, 'Some@Pass12')).body.message);
    }
    expect(answers.slice(0, 4)).toEqual(Array(4).fill(serverMessages.otpInvalid));
    expect(answers[4]).toBe(serverMessages.otpDead);
    const right = await client.resetPassword(code, 'Some@Pass12');
    expect(right.status).toBe(400);
    expect(right.body.message).toBe(serverMessages.otpDead);
  });

  it('refuses a resend within 60 s with the seconds left, then sends a new code that replaces the old', async () => {
    const { student, client, code: first } = await firstSignIn();

    server.clock.advance(20_000);
    const early = await client.post('/api/otp/send');
    expect(early.status).toBe(429);
    expect(early.body.retryAfter).toBe(40);
    expect(early.body.message).toMatch(/40 seconds/);

    server.clock.advance(40_000);
    const second = await resendCode(client, student.email);

    if (first !== second) {
      const stale = await client.resetPassword(first, 'Fresh@Pass1');
      expect(stale.status).toBe(400);
    }
    expect((await client.resetPassword(second, 'Fresh@Pass1')).status).toBe(200);
  });

  it('still signs a first-login student in while SMTP is down, says so, and resends once it is back', async () => {
    const student = await server.createStudent();
    const client = server.client();
    server.smtp.refuse = true;
    try {
      const signIn = await client.signIn(student);
      expect(signIn.status).toBe(200);
      expect(signIn.body.message).toBe(serverMessages.firstSignInMailFailed);
      expect(signIn.body.message).toContain('First Sign-in');
      const resendWhileDown = await client.post('/api/otp/send');
      expect(resendWhileDown.status).toBe(503);
      expect(resendWhileDown.body.message).toBe(serverMessages.otpMailFailed);
    } finally {
      server.smtp.refuse = false;
    }
    // No 60 s wait: the failed sends left no code behind.
    const code = await resendCode(client, student.email);
    expect((await client.resetPassword(code, 'Back@Online1')).status).toBe(200);
  });

  it('keeps a first-login session away from everything but the reset', async () => {
    const student = await server.createStudent();
    const client = server.client();
    await client.signIn(student);
    expect((await client.get('/api/auth/check')).body.firstlogin).toBe(true);
    const courses = await client.get('/api/courses');
    expect(courses.status).toBe(403);
    expect(courses.body.message).toBe(serverMessages.sessionLimitedToReset);
    expect(
      (await client.post('/api/rollno', { courseId: '00000000-0000-4000-8000-000000000000' })).status,
    ).toBe(403);
  });

  it('ends the session at logout', async () => {
    const { client } = await server.studentClient();
    expect((await client.get('/api/auth/check')).body.valid).toBe(true);
    const token = client.token!;
    const out = await client.post('/api/logout');
    expect(out.status).toBe(200);
    expect(out.body.message).toBe(serverMessages.loggedOut);
    expect(client.token).toBeUndefined();
    // The old token is dead on the server, not only forgotten by the browser.
    const replay = await server.client().get('/api/auth/check', { authorization: `Bearer ${token}` });
    expect(replay.body).toEqual({ valid: false });
  });

  it('accepts the session as a bearer token', async () => {
    const { client } = await server.studentClient();
    const res = await server.client().get('/api/auth/check', { authorization: `Bearer ${client.token}` });
    expect(res.body.valid).toBe(true);
  });

  it('ends the oldest session when a student signs in a third time', async () => {
    const student = await server.createActiveStudent();
    const clients = [];
    for (let i = 0; i < 3; i++) {
      const { client } = await server.studentClient(student);
      clients.push(client);
      server.clock.advance(1_000);
    }
    const valid = await Promise.all(clients.map(async (c) => (await c.get('/api/auth/check')).body.valid));
    expect(valid).toEqual([false, true, true]);
  });

  it('rate-limits the eleventh failed sign-in for an account, even with the right password', async () => {
    const student = await server.createActiveStudent();
    for (let i = 0; i < 10; i++) {
      const res = await server.client().signIn({ username: student.username, password: `Wrong@${i}xyz` });
      expect(res.status).toBe(401);
    }
    const blocked = await server.client().signIn(student);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe(serverMessages.tooManySignIns);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

    server.clock.advance(15 * 60_000 + 1_000);
    const later = await server.client().signIn(student);
    expect(later.status).toBe(200);
  });

  it('answers forgot-password the same for known and unknown accounts, and mails known students a code', async () => {
    const student = await server.createActiveStudent();
    const known = await server.client().post('/api/password/forgot', { username: student.email });
    const unknown = await server.client().post('/api/password/forgot', { username: 'ghost@example.test' });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    await server.smtp.waitFor(student.email);
    const code = server.smtp.latestCode(student.email);
    const reset = await server.client().post('/api/password/reset', {
      username: student.username,
      otp: code,
      newpassword: 'Remember@Me1',
    });
    expect(reset.status).toBe(200);
    const signIn = await server.client().signIn({ username: student.username, password: 'Remember@Me1' });
    expect(signIn.status).toBe(200);
  });

  it('answers a student without a live code exactly as an unknown name, at every step of a day of wrong codes', async () => {
    const student = await server.createActiveStudent();
    const unknown = `nobody${randomInt(1e9)}`;
    // Both names from the same client, a new one every 40 steps (80 tries, inside its 15 minutes' limit).
    let from = '';
    const answer = async (username: string) => {
      const reply = await sendRaw(
        server.url,
        jsonPost(server.url, '/api/password/reset', { username, otp: '123456', newpassword: 'Some@Pass12' }),
        { from },
      );
      return `${reply.status} ${reply.body}`;
    };
    const steps: { student: string; unknown: string }[] = [];
    const step = async () => {
      if (steps.length % 40 === 0)
        from = `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
      steps.push({ student: await answer(student.username), unknown: await answer(unknown) });
    };
    // A code's lifetime of tries (dead at the fifth), a new lifetime, then the rest of the day's budget.
    for (let i = 0; i < OTP_MAX_WRONG_TRIES + 2; i++) await step();
    server.clock.advance(OTP_LIFETIME_MINUTES * 60_000);
    while (steps.length < ACCOUNT_FAILURE_BUDGET) await step();
    // Past the day's budget, in a new lifetime: dead for the rest of the day.
    server.clock.advance(OTP_LIFETIME_MINUTES * 60_000);
    await step();

    for (const [i, { student: ofStudent, unknown: ofUnknown }] of steps.entries())
      expect(ofUnknown, `step ${i + 1}`).toBe(ofStudent);
    const messages = steps.map((s) => `${s.student.slice(0, 4)}${JSON.parse(s.student.slice(4)).message}`);
    expect(messages.slice(0, OTP_MAX_WRONG_TRIES + 2)).toEqual([
      ...Array(OTP_MAX_WRONG_TRIES - 1).fill(`400 ${serverMessages.otpInvalid}`),
      ...Array(3).fill(`400 ${serverMessages.otpDead}`),
    ]);
    expect(messages[OTP_MAX_WRONG_TRIES + 2]).toBe(`400 ${serverMessages.otpInvalid}`);
    expect(messages.at(-1)).toBe(`400 ${serverMessages.otpDead}`);
  });

  it("answers an unknown name as a student's new codes, forgot-password after forgot-password", async () => {
    const student = await server.createActiveStudent();
    const unknown = `nobody${randomInt(1e9)}`;
    const before = server.smtp.mails.length;
    const forgot = async () => {
      for (const username of [student.username, unknown])
        expect((await server.client().post('/api/password/forgot', { username })).status).toBe(200);
    };
    const steps: { student: string; unknown: string }[] = [];
    const tries = async (count: number) => {
      const wrong = server.smtp.latestCode(student.email) === '000000' ? '111111' : '000000';
      for (let i = 0; i < count; i++) {
        const answer = async (username: string) => {
          const res = await server.client().post('/api/password/reset', {
            username,
            otp: wrong,
            newpassword: 'Some@Pass12',
          });
          return `${res.status} ${res.body.message}`;
        };
        steps.push({ student: await answer(student.username), unknown: await answer(unknown) });
      }
    };
    await forgot();
    await server.smtp.waitFor(student.email, before);
    await tries(OTP_MAX_WRONG_TRIES + 1);
    // A minute on, a new code for the student: five new tries; the unknown name must get them too.
    server.clock.advance(61_000);
    const sent = server.smtp.mails.length;
    await forgot();
    await server.smtp.waitFor(student.email, sent);
    await tries(2);
    for (const [i, { student: ofStudent, unknown: ofUnknown }] of steps.entries())
      expect(ofUnknown, `step ${i + 1}`).toBe(ofStudent);
    expect(steps.at(-1)!.student).toBe(`400 ${serverMessages.otpInvalid}`);
  });

  it('refuses a reset without a session or a username', async () => {
    const res = await server.client().resetPassword('123456', 'Valid@Pass1');
    expect(res.status).toBe(401);
  });

  it('gives 400 with a message for malformed bodies, never 500', async () => {
    const client = server.client();
    const cases = [
      await client.request('POST', '/api/signin', {
        body: '{not json',
        headers: { 'content-type': 'application/json' },
      }),
      await client.post('/api/signin', { username: 42 }),
      await client.post('/api/signin', []),
      await client.resetPassword('12ab56', 'Valid@Pass1'),
    ];
    for (const res of cases) {
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });
});
