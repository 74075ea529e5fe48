import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { MFA_FAILURES_PER_ACCOUNT } from '../../contract/constants';
import { PERIOD_MS, totpAt } from '../../../test/support/admin-factor';
import { testEngines } from '../../../test/support/databases';
import { SoftAuthenticator } from '../../../test/support/soft-authenticator';
import { suiteServer } from '../../../test/support/test-server';
import type { TestClient } from '../../../test/support/http-client';
import { createAdmin } from '../accounts/users';
import { adminPasskeyChallenges, adminPasskeys, auditEvents } from '../db/schema';
import { resetAdminFactor } from './reset';

/**
 * The passkey routes with a software authenticator (test/support/soft-authenticator.ts): real ES256
 * signatures over what a browser would hand the authenticator, checked by @simplewebauthn/server.
 * The browser's own part is e2e/admin-passkey.spec.ts (Chromium's virtual authenticator).
 */
describe.each(testEngines())('admin passkeys (%s)', (engine) => {
  const server = suiteServer({ engine });
  const failed = { message: serverMessages.passkeyFailed };

  const events = async (userId: string, action: string) =>
    (
      await server.ctx.db
        .select({ details: auditEvents.details })
        .from(auditEvents)
        .where(and(eq(auditEvents.actorId, userId), eq(auditEvents.action, action)))
    ).map((e) => e.details as Record<string, unknown>);

  /** A new admin without a factor, past the password: the `enrol` step. */
  async function enrolStep(username: string) {
    const admin = await createAdmin(server.ctx.db, {
      username,
      email: `${username}@example.test`,
      password: 'Admin@12345',
    });
    const client = server.client();
    const first = await client.adminPassword({ username, password: 'Admin@12345' });
    expect(first.body.next).toBe('enrol');
    return { admin, client };
  }

  /** Registers a new software passkey for the session's admin. */
  async function addKey(client: TestClient, name: string) {
    const key = new SoftAuthenticator(server.ctx.config.publicUrl);
    const options = await client.post('/api/admin/passkeys/registration');
    expect(options.status).toBe(200);
    const added = await client.post('/api/admin/passkeys', {
      name,
      credential: key.register(options.body.options),
    });
    return { key, added };
  }

  /** Options, then the key's assertion: the second step (or proving the factor again). */
  async function usePasskey(client: TestClient, key: SoftAuthenticator) {
    const options = await client.post('/api/admin/login/passkey/options');
    expect(options.status).toBe(200);
    return client.post('/api/admin/login/passkey', { credential: key.assert(options.body.options) });
  }

  it('sets up a passkey instead of the app at the enrol step (recovery codes, a full session), then signs in with it', async () => {
    const { admin, client } = await enrolStep('pk-first');
    // The `enrol` step opens nothing else, and the second step is not this one.
    expect((await client.post('/api/admin/login/passkey/options')).status).toBe(403);

    const options = await client.post('/api/admin/passkeys/registration');
    expect(options.status).toBe(200);
    const { rp, user, challenge } = options.body.options;
    expect(rp).toEqual({ name: 'Lectern', id: 'localhost' });
    expect(user.name).toBe('pk-first');
    expect(user.id).not.toContain(admin.id);
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const key = new SoftAuthenticator(server.ctx.config.publicUrl);
    // Made for another site: refused, and the challenge is gone with it.
    const elsewhere = new SoftAuthenticator('http://evil.test');
    const refused = await client.post('/api/admin/passkeys', {
      name: 'Phishing',
      credential: elsewhere.register(options.body.options),
    });
    expect(refused).toMatchObject({ status: 400, body: { message: serverMessages.passkeyNotAdded } });
    const again = await client.post('/api/admin/passkeys', {
      name: 'Laptop',
      credential: key.register(options.body.options),
    });
    expect(again).toMatchObject({ status: 400, body: { message: serverMessages.passkeyNotAdded } });

    const fresh = await client.post('/api/admin/passkeys/registration');
    const added = await client.post('/api/admin/passkeys', {
      name: 'Laptop',
      credential: key.register(fresh.body.options),
    });
    expect(added.status).toBe(201);
    expect(added.body.message).toBe(serverMessages.passkeyEnrolled);
    expect(added.body.passkey).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    expect(added.body.recoveryCodes).toHaveLength(10);
    expect((await client.get('/api/admin/course/list')).status).toBe(200);
    expect(await events(admin.id, 'mfa.enrolled')).toEqual([{ factor: 'passkey', ip: '127.0.0.1' }]);
    expect(await events(admin.id, 'mfa.passkey-added')).toHaveLength(1);
    const [row] = await server.ctx.db.select().from(adminPasskeys).where(eq(adminPasskeys.userId, admin.id));
    expect(row).toMatchObject({ credentialId: key.id, counter: 0, transports: ['internal'] });
    expect((await client.get('/api/admin/mfa')).body).toMatchObject({ enrolled: true, passkeys: 1 });

    // Next sign-in: the password opens the second step, which names the passkey as the factor held.
    await client.post('/api/admin/logout');
    const password = await client.adminPassword({ username: 'pk-first', password: 'Admin@12345' });
    expect(password.body).toEqual({
      message: serverMessages.mfaCodeNeeded,
      next: 'totp',
      factors: ['passkey'],
    });
    const signedIn = await usePasskey(client, key);
    expect(signedIn).toMatchObject({ status: 200, body: { message: serverMessages.mfaSignedIn } });
    expect((await client.get('/api/admin/course/list')).status).toBe(200);
    expect(await events(admin.id, 'mfa.passkey-used')).toHaveLength(1);
    // A recovery code still works in its place.
    await client.post('/api/admin/logout');
    await client.adminPassword({ username: 'pk-first', password: 'Admin@12345' });
    expect((await client.post('/api/admin/login/totp', { code: added.body.recoveryCodes[0] })).status).toBe(
      200,
    );
  });

  it('refuses a replayed, stale, expired, wrong-origin or backwards-counter assertion', async () => {
    const { client } = await enrolStep('pk-replay');
    const { key } = await addKey(client, 'Laptop');
    const second = async () => {
      await client.post('/api/admin/logout');
      await client.adminPassword({ username: 'pk-replay', password: 'Admin@12345' });
    };

    await second();
    const options = await client.post('/api/admin/login/passkey/options');
    const used = key.assert(options.body.options);
    expect((await client.post('/api/admin/login/passkey', { credential: used })).status).toBe(200);

    await second();
    // No ceremony pending; then one pending for another challenge.
    expect(await client.post('/api/admin/login/passkey', { credential: used })).toMatchObject({
      status: 401,
      body: failed,
    });
    await client.post('/api/admin/login/passkey/options');
    expect(await client.post('/api/admin/login/passkey', { credential: used })).toMatchObject({
      status: 401,
      body: failed,
    });
    // Signed for another origin.
    const other = await client.post('/api/admin/login/passkey/options');
    const phished = key.assert(other.body.options, { origin: 'http://evil.test' });
    expect(await client.post('/api/admin/login/passkey', { credential: phished })).toMatchObject({
      status: 401,
      body: failed,
    });
    // A cloned key: its counter is behind the one stored.
    const cloneOptions = await client.post('/api/admin/login/passkey/options');
    const counter = key.counter;
    key.counter = 0;
    const cloned = key.assert(cloneOptions.body.options);
    key.counter = counter;
    expect(await client.post('/api/admin/login/passkey', { credential: cloned })).toMatchObject({
      status: 401,
      body: failed,
    });
    // Five minutes later the challenge is dead.
    const late = await client.post('/api/admin/login/passkey/options');
    server.clock.advance(5 * 60_000 + 1000);
    expect(
      await client.post('/api/admin/login/passkey', { credential: key.assert(late.body.options) }),
    ).toMatchObject({ status: 401, body: failed });
    expect((await client.get('/api/admin/course/list')).status).toBe(403);
    // The real thing still signs in.
    expect((await usePasskey(client, key)).status).toBe(200);
    expect(await server.ctx.db.select().from(adminPasskeyChallenges)).toEqual([]);
  });

  it('counts refused passkeys against the limit wrong codes share (10 per 15 minutes)', async () => {
    const { admin, client } = await enrolStep('pk-limit');
    const { key } = await addKey(client, 'Laptop');
    await client.post('/api/admin/logout');
    await client.adminPassword({ username: 'pk-limit', password: 'Admin@12345' });
    const forged = { credential: { ...key.assert({ challenge: 'Zm9yZ2Vk' }) } };
    for (let i = 0; i < MFA_FAILURES_PER_ACCOUNT; i++)
      expect((await client.post('/api/admin/login/passkey', forged)).status).toBe(401);
    const blocked = await usePasskey(client, key);
    expect(blocked).toMatchObject({ status: 429, body: { message: serverMessages.mfaTooManyCodes } });
    const failures = await events(admin.id, 'mfa.failure');
    expect(failures).toHaveLength(MFA_FAILURES_PER_ACCOUNT);
    expect(failures.every((d) => d.kind === 'passkey')).toBe(true);
  });

  it('a stolen session of a passkey-only admin cannot set up an app: 403 until a passkey proves it is them', async () => {
    const { client } = await enrolStep('pk-stolen');
    const { key } = await addKey(client, 'Laptop');
    // Eleven minutes on, the cookie alone (a stolen one) sets up no factor of its own.
    server.clock.advance(11 * 60_000);
    const stale = { status: 403, body: { message: serverMessages.mfaFreshFactor } };
    expect(await client.post('/api/admin/mfa/enrolment')).toMatchObject(stale);
    expect(await client.post('/api/admin/mfa/enrol', { code: '123456' })).toMatchObject(stale);
    // The owner's passkey proves it: then the app may be added.
    expect((await usePasskey(client, key)).status).toBe(200);
    expect((await client.post('/api/admin/mfa/enrolment')).status).toBe(200);
  });

  it('an app set up beside a passkey leaves the recovery codes as they were', async () => {
    const { client } = await enrolStep('pk-then-app');
    const { added } = await addKey(client, 'Laptop');
    const recoveryCodes = added.body.recoveryCodes as string[];
    const enrolment = await client.post('/api/admin/mfa/enrolment');
    expect(enrolment.status).toBe(200);
    const step = Math.floor(server.clock.now().getTime() / PERIOD_MS);
    const app = await client.post('/api/admin/mfa/enrol', { code: totpAt(enrolment.body.secret, step) });
    expect(app.status).toBe(200);
    // The codes given with the passkey still sign in.
    await client.post('/api/admin/logout');
    const password = await client.adminPassword({ username: 'pk-then-app', password: 'Admin@12345' });
    expect(password.body.factors).toEqual(['totp', 'passkey']);
    expect((await client.post('/api/admin/login/totp', { code: recoveryCodes[0] })).status).toBe(200);
    expect(app.body).toEqual({ message: serverMessages.mfaAppAdded });
  });

  it('a burst of parallel deletes leaves a passkey-only admin their last passkey', async () => {
    const { admin, client } = await enrolStep('pk-burst');
    const ids: string[] = [];
    for (const name of ['Laptop', 'Phone', 'Tablet', 'Key', 'Spare', 'Old'])
      ids.push((await addKey(client, name)).added.body.passkey.id as string);
    const answers = await Promise.all(ids.map((id) => client.request('DELETE', `/api/admin/passkeys/${id}`)));
    const left = await server.ctx.db.select().from(adminPasskeys).where(eq(adminPasskeys.userId, admin.id));
    expect(left).toHaveLength(1);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 409]);
    expect(answers.find((a) => a.status === 409)!.body).toEqual({ message: serverMessages.passkeyLast });
  });

  it('lists and removes passkeys with a fresh factor, keeps the last factor, and mfa:reset removes them', async () => {
    const { client, admin } = await server.adminClient();
    const laptop = await addKey(client, 'Laptop');
    expect(laptop.added).toMatchObject({ status: 201, body: { message: serverMessages.passkeyAdded } });
    expect(laptop.added.body.recoveryCodes).toBeUndefined();
    server.clock.advance(1000); // listed oldest first
    const phone = await addKey(client, 'Phone');
    const list = await client.get('/api/admin/passkeys');
    expect(list.body.passkeys.map((p: { name: string }) => p.name)).toEqual(['Laptop', 'Phone']);

    // Eleven minutes on, removing wants the factor again: a passkey proves it.
    server.clock.advance(11 * 60_000);
    const phoneId = phone.added.body.passkey.id as string;
    expect(await client.request('DELETE', `/api/admin/passkeys/${phoneId}`)).toMatchObject({
      status: 403,
      body: { message: serverMessages.mfaFreshFactor },
    });
    expect(await usePasskey(client, laptop.key)).toMatchObject({
      status: 200,
      body: { message: serverMessages.mfaConfirmed },
    });
    expect(await client.request('DELETE', `/api/admin/passkeys/${phoneId}`)).toMatchObject({
      status: 200,
      body: { message: serverMessages.passkeyRemoved },
    });
    expect(await events(admin.id, 'mfa.passkey-removed')).toHaveLength(1);
    // Someone else's, or gone: 404.
    expect((await client.request('DELETE', `/api/admin/passkeys/${phoneId}`)).status).toBe(404);

    // A passkey-only admin cannot remove their last factor under ADMIN_MFA=required.
    const only = await enrolStep('pk-only');
    const { added } = await addKey(only.client, 'Only');
    expect((await only.client.request('DELETE', `/api/admin/passkeys/${added.body.passkey.id}`)).status).toBe(
      409,
    );
    expect((await client.request('DELETE', `/api/admin/passkeys/${added.body.passkey.id}`)).status).toBe(404);

    // mfa:reset: the passkeys go with the app.
    expect(await resetAdminFactor(server.ctx, only.admin, 'test')).toMatchObject({ had: true });
    expect(
      await server.ctx.db.select().from(adminPasskeys).where(eq(adminPasskeys.userId, only.admin.id)),
    ).toEqual([]);
  });
});
