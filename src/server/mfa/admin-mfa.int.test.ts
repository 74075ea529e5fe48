import { execFileSync } from 'node:child_process';
import { and, eq } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { heldFactor, PERIOD_MS, totpAt } from '../../../test/support/admin-factor';
import { testEngines } from '../../../test/support/databases';
import { setupLinkToken } from '../../../test/support/setup-link';
import { suiteServer } from '../../../test/support/test-server';
import { adminFactors, adminRecoveryCodes, auditEvents } from '../db/schema';
import { sessionStore } from '../accounts/sessions';
import { createAdmin } from '../accounts/users';
import { resetAdminFactor } from './reset';

/** Debian's oathtool: the codes a standard authenticator shows for `secret` at `at`. */
const oathtool = (secret: string, at: Date) =>
  execFileSync(
    'oathtool',
    ['--totp', '-b', `--now=${at.toISOString().replace('T', ' ').slice(0, 19)} UTC`, secret],
    { encoding: 'utf8' },
  ).trim();

describe.each(testEngines())('admin second factor (%s)', (engine) => {
  const server = suiteServer({ engine });

  const events = async (userId: string, action: string) =>
    (
      await server.ctx.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.actorId, userId), eq(auditEvents.action, action)))
    ).length;

  it('enrols after the password (QR, secret, a code checked against oathtool), then asks for a code at every sign-in', async () => {
    // An admin without a factor (as the first start makes one).
    const fresh = await createAdmin(server.ctx.db, {
      username: 'mfa-fresh',
      email: 'mfa-fresh@example.test',
      password: 'Admin@12345',
    });
    const client = server.client();
    const first = await client.adminPassword({ username: 'mfa-fresh', password: 'Admin@12345' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: serverMessages.mfaEnrolNeeded, next: 'enrol' });
    expect(first.body.message).not.toContain('successful');
    // The enrolment session opens nothing else.
    expect((await client.get('/api/admin/course/list')).status).toBe(403);
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });
    expect((await client.get('/api/auth/check')).body).toEqual({ valid: false });

    const enrolment = await client.post('/api/admin/mfa/enrolment');
    expect(enrolment.status).toBe(200);
    const { secret, uri, qr } = enrolment.body as { secret: string; uri: string; qr: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Lectern:mfa-fresh\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(new URL(uri).searchParams.get('issuer')).toBe('Lectern');
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.split(',')[1]!, 'base64').toString()).toContain('<svg');

    // Stored sealed, never in clear.
    const [row] = await server.ctx.db.select().from(adminFactors).where(eq(adminFactors.userId, fresh.id));
    expect(row!.secret).toMatch(/^v1\./);
    expect(row!.secret).not.toContain(secret);

    // oathtool and otplib agree; the code oathtool gives is accepted.
    const now = server.clock.now();
    const code = oathtool(secret, now);
    expect(code).toBe(generateSync({ secret, epoch: Math.floor(now.getTime() / 1000) }));
    expect(
      (await client.post('/api/admin/mfa/enrol', { code: '000000' === code ? '111111' : '000000' })).status,
    ).toBe(401);
    const done = await client.post('/api/admin/mfa/enrol', { code });
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect(new Set(done.body.recoveryCodes).size).toBe(10);
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: true, role: 'admin' });
    expect(await events(fresh.id, 'mfa.enrolled')).toBe(1);
    const stored = await server.ctx.db
      .select({ hash: adminRecoveryCodes.codeHash })
      .from(adminRecoveryCodes)
      .where(eq(adminRecoveryCodes.userId, fresh.id));
    expect(stored.map((s) => s.hash)).not.toContain(done.body.recoveryCodes[0]);

    // The next sign-in asks for a code; the same code (its step taken) is refused: no replay.
    server.clock.advance(5_000);
    const again = server.client();
    expect((await again.adminPassword({ username: 'mfa-fresh', password: 'Admin@12345' })).body.next).toBe(
      'totp',
    );
    expect((await again.get('/api/admin/course/list')).status).toBe(403);
    const replay = await again.post('/api/admin/login/totp', { code });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe(serverMessages.mfaCodeWrong);
    expect(await events(fresh.id, 'mfa.failure')).toBeGreaterThanOrEqual(2);
    // The next step's code (a phone a little ahead) is taken, once.
    const step = Math.floor(server.clock.now().getTime() / PERIOD_MS);
    const ahead = oathtool(secret, new Date((step + 1) * PERIOD_MS));
    const pendingToken = again.token;
    const signedIn = await again.post('/api/admin/login/totp', { code: ahead });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.message).toContain('successful');
    expect(again.token).not.toBe(pendingToken); // a new session, the pending one ended
    expect((await again.get('/api/admin/course/list')).status).toBe(200);
    // Two steps ahead is outside the window.
    const third = server.client();
    await third.adminPassword({ username: 'mfa-fresh', password: 'Admin@12345' });
    expect((await third.post('/api/admin/login/totp', { code: totpAt(secret, step + 3) })).status).toBe(401);

    // A recovery code works once instead of the app.
    const recovery = done.body.recoveryCodes[0] as string;
    expect((await third.post('/api/admin/login/totp', { code: recovery.toUpperCase() })).status).toBe(200);
    expect(await events(fresh.id, 'mfa.recovery-used')).toBe(1);
    const fourth = server.client();
    await fourth.adminPassword({ username: 'mfa-fresh', password: 'Admin@12345' });
    expect((await fourth.post('/api/admin/login/totp', { code: recovery })).status).toBe(401);
    expect((await third.get('/api/admin/mfa')).body).toMatchObject({ enrolled: true, recoveryCodesLeft: 9 });
  });

  it('a pending second step expires, and cannot set up a second factor over the first', async () => {
    const admin = await server.createAdmin();
    const client = server.client();
    await client.adminPassword(admin);
    expect((await client.post('/api/admin/mfa/enrolment')).status).toBe(403);
    server.clock.advance(11 * 60_000);
    expect((await client.post('/api/admin/login/totp', { code: '123456' })).status).toBe(401);
  });

  it('sensitive routes want the factor within 10 minutes (403, then fine after a code)', async () => {
    const { client, admin } = await server.adminClient();
    const held = heldFactor(server.url, admin.username)!;
    const codes = await client.post('/api/admin/mfa/recovery-codes');
    expect(codes.status).toBe(200);
    held.recoveryCodes = codes.body.recoveryCodes;
    server.clock.advance(11 * 60_000);
    const stale = await client.post('/api/admin/mfa/recovery-codes');
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ message: serverMessages.mfaFreshFactor });
    const password = await client.post('/api/admin/password', {
      currentPassword: 'Admin@12345',
      newPassword: 'Changed@12345',
    });
    expect(password.status).toBe(403);
    const step = Math.floor(server.clock.now().getTime() / PERIOD_MS);
    expect((await client.post('/api/admin/mfa/verify', { code: totpAt(held.secret, step) })).status).toBe(
      200,
    );
    held.lastStep = step;
    // Changing the password ends the admin's other sessions.
    const other = server.client();
    expect((await other.adminLogin({ ...admin, password: 'Admin@12345' })).status).toBe(200);
    expect(
      (
        await client.post('/api/admin/password', {
          currentPassword: 'Wrong@12345',
          newPassword: 'Changed@12345',
        })
      ).body.message,
    ).toBe(serverMessages.currentPasswordWrong);
    const changed = await client.post('/api/admin/password', {
      currentPassword: 'Admin@12345',
      newPassword: 'Changed@12345',
    });
    expect(changed.status).toBe(200);
    expect((await other.get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: true, role: 'admin' });
  });

  it('a change to the second factor signs out the other sessions and mails the owner', async () => {
    const { client, admin } = await server.adminClient({ staySignedIn: false });
    const other = server.client();
    server.clock.advance(1000);
    expect((await other.adminLogin({ ...admin, password: 'Admin@12345' })).status).toBe(200);
    const before = server.smtp.mails.length;
    expect((await client.post('/api/admin/mfa/recovery-codes')).status).toBe(200);
    expect((await other.get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: true, role: 'admin' });
    const mail = await server.smtp.waitFor(`${admin.username}@example.test`, before);
    expect(mail.subject).toBe('Lectern: your two-step sign-in changed');
    expect(mail.text).toContain('New recovery codes were made');
    expect(mail.text).toContain('127.0.0.1');
    expect(await events(admin.id, 'mfa.recovery-renewed')).toBe(1);
  });

  it('signing out the other sessions wants the factor within 10 minutes', async () => {
    const { client, admin } = await server.adminClient({ staySignedIn: false });
    const other = server.client();
    server.clock.advance(1000);
    expect((await other.adminLogin({ ...admin, password: 'Admin@12345' })).status).toBe(200);
    server.clock.advance(11 * 60_000);
    expect(await client.post('/api/admin/sessions/end-others')).toMatchObject({
      status: 403,
      body: { message: serverMessages.mfaFreshFactor },
    });
    expect((await other.get('/api/admin/auth/admincheck')).body.valid).toBe(true);
    expect((await client.proveFactor()).status).toBe(200);
    expect((await client.post('/api/admin/sessions/end-others')).status).toBe(200);
    expect((await other.get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });
  });

  it('a staff session without a factor is not fresh (ADMIN_MFA=required)', async () => {
    const admin = await createAdmin(server.ctx.db, {
      username: 'mfa-none',
      email: 'mfa-none@example.test',
      password: 'Admin@12345',
    });
    // A full session without a factor, as a sign-in under ADMIN_MFA=optional left it before the
    // setting became required.
    const token = await sessionStore(server.ctx.db).create(admin, 'full', server.clock.now(), 1);
    const client = server.client();
    client.cookies.set('token', token);
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: true, role: 'admin' });
    const refused = { status: 403, body: { message: serverMessages.mfaEnrolAtSignIn } };
    expect(
      await client.post('/api/admin/password', { currentPassword: 'Admin@12345', newPassword: 'New@123456' }),
    ).toMatchObject(refused);
    expect(await client.post('/api/admin/mfa/enrolment')).toMatchObject(refused);
    // The next sign-in sets the factor up.
    expect(
      (await server.client().adminPassword({ username: 'mfa-none', password: 'Admin@12345' })).body.next,
    ).toBe('enrol');
  });

  it('admin sessions end after 30 idle minutes and 12 hours in any case; the admin sees and ends the others', async () => {
    const { client, admin } = await server.adminClient({ staySignedIn: false });
    const second = server.client();
    server.clock.advance(1000);
    expect((await second.adminLogin({ ...admin, password: 'Admin@12345' })).status).toBe(200);
    const list = await client.get('/api/admin/sessions');
    expect(list.body.sessions).toHaveLength(2);
    expect(list.body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    // Where each was started from: the address, and the browser as it named itself.
    for (const listed of list.body.sessions) {
      expect(listed.ip).toBe('127.0.0.1');
      expect(typeof listed.userAgent).toBe('string');
    }
    expect((await client.post('/api/admin/sessions/end-others')).status).toBe(200);
    expect((await second.get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });

    // Used every 20 minutes: still on after 11 h 40; at 12 h it ends however busy.
    for (let i = 0; i < 35; i++) {
      server.clock.advance(20 * 60_000);
      expect((await client.get('/api/admin/auth/admincheck')).body.valid).toBe(true);
    }
    server.clock.advance(20 * 60_000);
    expect((await client.get('/api/admin/auth/admincheck')).body.valid).toBe(false);
    // Idle 31 minutes: ended.
    const idle = await server.adminClient({ staySignedIn: false });
    server.clock.advance(31 * 60_000);
    expect((await idle.client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });
  });

  it('mfa:reset removes the factor and the sessions and mails a set-up link: the old password opens nothing, the link sets a new one and the factor', async () => {
    const { client, admin } = await server.adminClient();
    const staff = { ...admin, email: `${admin.username}@example.test`, name: admin.username };
    const before = server.smtp.mails.length;
    expect(await resetAdminFactor(server.ctx, staff, 'test')).toEqual({ had: true, mailed: true });
    expect(await events(admin.id, 'mfa.reset')).toBe(1);
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });
    // Whoever else knows the old password cannot set up a factor of their own.
    const pending = { status: 403, body: { message: serverMessages.staffSetupPending } };
    expect(await server.client().adminPassword({ ...admin, password: 'Admin@12345' })).toMatchObject(pending);

    // The owner opens the mailed link: a new password, then the set-up step.
    const mail = await server.smtp.waitFor(staff.email, before);
    expect(mail.subject).toBe('Set up your Lectern account');
    const token = setupLinkToken(mail.text);
    const owner = server.client();
    expect((await owner.post('/api/admin/setup', { token, newPassword: 'short' })).status).toBe(400);
    const done = await owner.post('/api/admin/setup', { token, newPassword: 'Owner@12345' });
    expect(done).toMatchObject({
      status: 200,
      body: { message: serverMessages.staffSetupDone, next: 'enrol' },
    });
    expect((await owner.post('/api/admin/mfa/enrolment')).status).toBe(200);
    expect((await owner.get('/api/admin/course/list')).status).toBe(403);
    // The link works once; the new password opens the set-up step too.
    const dead = { status: 401, body: { message: serverMessages.staffSetupLinkDead } };
    expect(
      await server.client().post('/api/admin/setup', { token, newPassword: 'Other@12345' }),
    ).toMatchObject(dead);
    const signIn = await server.client().adminPassword({ ...admin, password: 'Owner@12345' });
    expect(signIn.body.next).toBe('enrol');

    // A new link replaces the last; after 48 hours it is dead.
    const again = server.smtp.mails.length;
    await resetAdminFactor(server.ctx, staff, 'test');
    const late = setupLinkToken((await server.smtp.waitFor(staff.email, again)).text);
    server.clock.advance(48 * 3600_000 + 60_000);
    expect(
      await server.client().post('/api/admin/setup', { token: late, newPassword: 'Late@12345' }),
    ).toMatchObject(dead);
    expect(await server.client().adminPassword({ ...admin, password: 'Owner@12345' })).toMatchObject(pending);
  });
});

describe('ADMIN_MFA=optional', () => {
  const server = suiteServer({ engine: 'pglite', env: { ADMIN_MFA: 'optional' } });

  it('signs an admin without a factor in with the password alone; one with a factor still gives a code', async () => {
    await createAdmin(server.ctx.db, { username: 'opt', email: 'opt@example.test', password: 'Admin@12345' });
    const client = server.client();
    const res = await client.adminPassword({ username: 'opt', password: 'Admin@12345' });
    expect(res.body).toEqual({ message: serverMessages.adminSignInSuccess });
    expect((await client.get('/api/admin/mfa')).body).toMatchObject({ enrolled: false, required: false });
    // No factor to prove: sensitive routes are open to it.
    expect(
      (
        await client.post('/api/admin/password', {
          currentPassword: 'Admin@12345',
          newPassword: 'New@123456',
        })
      ).status,
    ).toBe(200);
    // Nor to set up the app from the signed-in session.
    expect((await client.post('/api/admin/mfa/enrolment')).status).toBe(200);
    const withFactor = await server.createAdmin();
    expect((await server.client().adminPassword(withFactor)).body.next).toBe('totp');
  });
});
