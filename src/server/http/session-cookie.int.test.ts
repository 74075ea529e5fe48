import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { TestServer, suiteServer } from '../../../test/support/test-server';
import { suiteTempDirs } from '../../../test/support/temp-dirs';
import { selfSignedCert } from '../../../test/support/tls';
import type { TestClient, TestResponse } from '../../../test/support/http-client';
import { ConfigError, loadConfig } from '../config';

// The cookie's attributes do not depend on the database engine: PGlite only.

/** The `token` Set-Cookie line of an answer. */
function tokenCookie(res: TestResponse): string {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('token='));
  if (!line) throw new Error(`no token cookie in ${JSON.stringify(res.headers.getSetCookie())}`);
  return line;
}

/** Attributes that never change with the transport. */
function expectSessionAttributes(cookie: string, secure: boolean) {
  expect(cookie).toMatch(/; HttpOnly/);
  expect(cookie).toMatch(/; SameSite=Lax/);
  expect(cookie).toMatch(/; Path=\//);
  if (secure) expect(cookie).toMatch(/; Secure/);
  else expect(cookie).not.toMatch(/Secure/i);
}

/**
 * A student signs in, is signed in, signs out: every cookie this sets or clears is Secure exactly
 * when `secure`, and `/api/auth/check` follows.
 */
async function signInAndOut(
  server: TestServer,
  client: TestClient,
  secure: boolean,
  headers: Record<string, string> = {},
) {
  const student = await server.createActiveStudent();
  const signIn = await client.post(
    '/api/signin',
    { username: student.username, password: student.password },
    headers,
  );
  expect(signIn.status).toBe(200);
  const cookie = tokenCookie(signIn);
  expect(cookie).toMatch(/^token=[\w-]{43};/);
  expect(cookie).toMatch(/Max-Age=86400/);
  expectSessionAttributes(cookie, secure);
  expect((await client.get('/api/auth/check', headers)).body).toEqual({
    valid: true,
    role: 'student',
    firstlogin: false,
  });

  const logout = await client.post('/api/logout', {}, headers);
  expect(logout.status).toBe(200);
  const cleared = tokenCookie(logout);
  expect(cleared).toMatch(/^token=;/);
  expectSessionAttributes(cleared, secure);
  expect((await client.get('/api/auth/check', headers)).body).toEqual({ valid: false });
}

describe('session cookie over plain HTTP', () => {
  const server = suiteServer({ engine: 'pglite' });

  it('is HttpOnly and SameSite=Lax but not Secure, so a browser keeps it', async () => {
    await signInAndOut(server, server.client(), false);
  });

  it('ignores X-Forwarded-Proto without TRUST_PROXY: anyone can send that header', async () => {
    await signInAndOut(server, server.client(), false, { 'x-forwarded-proto': 'https' });
  });

  it('follows the same rule for the admin sign-in and the first-login reset', async () => {
    const admin = await server.createAdmin();
    const adminLogin = await server
      .client()
      .adminLogin({ username: admin.username, password: admin.password });
    expectSessionAttributes(tokenCookie(adminLogin), false);

    const student = await server.createStudent();
    const client = server.client();
    const mails = server.smtp.mails.length;
    await client.post('/api/signin', { username: student.username, password: student.password });
    expect((await client.get('/api/auth/check')).body).toMatchObject({ valid: true, firstlogin: true });
    await server.smtp.waitFor(student.email, mails);
    const reset = await client.post('/api/password/reset', {
      otp: server.smtp.latestCode(student.email),
      newpassword: 'Brand@New123',
    });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe(serverMessages.resetDone);
    expectSessionAttributes(tokenCookie(reset), false);
  });
});

describe('session cookie behind a TLS proxy (TRUST_PROXY=1)', () => {
  const server = suiteServer({ engine: 'pglite', env: { TRUST_PROXY: '1' } });

  it('is Secure when the proxy says the browser came over HTTPS', async () => {
    await signInAndOut(server, server.client(), true, { 'x-forwarded-proto': 'https' });
  });

  it('is not Secure when the proxy says plain HTTP, or says nothing', async () => {
    await signInAndOut(server, server.client(), false, { 'x-forwarded-proto': 'http' });
    await signInAndOut(server, server.client(), false);
  });
});

describe('HTTPS served by Lectern (TLS_CERT/TLS_KEY)', () => {
  const tempDir = suiteTempDirs();
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir('lectern-tls-');
    const { certPath, keyPath } = selfSignedCert(dir);
    server = await TestServer.start({ engine: 'pglite', env: { TLS_CERT: certPath, TLS_KEY: keyPath } });
  });
  afterAll(() => server?.close());

  it('answers over TLS with a Secure session cookie', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    await signInAndOut(server, server.client(), true);
  });

  it('keeps the origin check: a same-origin form posts, another site is refused', async () => {
    const student = await server.createActiveStudent();
    const body = { username: student.username, password: student.password };
    const same = await server.client().post('/api/signin', body, { origin: server.url });
    expect(same.status).toBe(200);
    expectSessionAttributes(tokenCookie(same), true);
    const other = await server.client().post('/api/signin', body, { origin: 'https://evil.example' });
    expect(other.status).toBe(403);
    expect(other.headers.getSetCookie()).toEqual([]);
  });

  it('names the setting in one line when the files are missing, unreadable or do not match', () => {
    const one = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).not.toContain('\n');
        return (error as Error).message;
      }
      throw new Error('loadConfig accepted it');
    };
    const { certPath, keyPath } = selfSignedCert(dir, 'other');
    const mine = { cert: server.ctx.config.tls!.cert };
    expect(mine.cert).toContain('BEGIN CERTIFICATE');
    expect(one({ TLS_CERT: certPath })).toMatch(/^Missing TLS_KEY: /);
    expect(one({ TLS_KEY: keyPath })).toMatch(/^Missing TLS_CERT: /);
    expect(one({ TLS_CERT: `${dir}/nope.crt`, TLS_KEY: keyPath })).toMatch(
      /^Invalid TLS_CERT=".*nope\.crt": /,
    );
    expect(one({ TLS_CERT: certPath, TLS_KEY: `${dir}/nope.key` })).toMatch(
      /^Invalid TLS_KEY=".*nope\.key": /,
    );
    expect(one({ TLS_CERT: keyPath, TLS_KEY: keyPath })).toMatch(/^Invalid TLS_CERT=/);
    expect(one({ TLS_CERT: certPath, TLS_KEY: certPath })).toMatch(/^Invalid TLS_KEY=/);
    expect(one({ TLS_CERT: certPath, TLS_KEY: `${dir}/lectern.key` })).toMatch(/^Invalid TLS_KEY=/);
  });
});
