import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { testEngines } from '../../../test/support/databases';
import { suiteServer } from '../../../test/support/test-server';
import { auditEvents, courses } from '../db/schema';
import { ensureFirstAdmin } from './first-admin';

describe.each(testEngines())('admin sign-in and check (%s)', (engine) => {
  const server = suiteServer({ engine });

  it('signs an admin in with a message containing "successful"', async () => {
    const admin = await server.createAdmin();
    const client = server.client();
    const res = await client.adminLogin(admin);
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('successful');
    expect(client.token).toBeDefined();
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: true, role: 'admin' });
    expect((await client.get('/api/auth/check')).body).toEqual({
      valid: true,
      role: 'admin',
      firstlogin: false,
    });
  });

  it('signs an instructor in at the admin login with their second factor, scoped to their courses', async () => {
    const [course] = await server.ctx.db
      .insert(courses)
      .values({
        batch: 1,
        courseCode: 'INS-1',
        name: 'Taught',
        description: 'A course.',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
      })
      .returning({ id: courses.id });
    const { client, instructor } = await server.instructorClient([course!.id]);
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({
      valid: true,
      role: 'instructor',
      courseIds: [course!.id],
    });
    expect((await client.get('/api/auth/check')).body).toMatchObject({ valid: true, role: 'instructor' });
    // Their own account: yes; the admins' routes: no; the student sign-in: no.
    expect((await client.get('/api/admin/sessions')).status).toBe(200);
    expect((await client.get('/api/admin/mfa')).body).toMatchObject({ enrolled: true });
    for (const path of ['/api/admin/backups', '/api/admin/instructors', '/api/admin/trace-runs'])
      expect((await client.get(path)).body, path).toEqual({ message: serverMessages.adminsOnly });
    const courseList = await client.get('/api/admin/course/list');
    expect(courseList.body.course.map((c: { _id: string }) => c._id)).toEqual([course!.id]);
    const asStudent = await server
      .client()
      .post('/api/signin', { username: instructor.username, password: 'Tutor@12345' });
    expect(asStudent.status).toBe(403);
    // Their password alone opens only the second step, as an admin's does.
    const pending = await server
      .client()
      .post('/api/admin/login', { username: instructor.username, password: 'Tutor@12345' });
    expect(pending.body).toMatchObject({ next: 'totp' });
  });

  it('refuses students on the admin login and reports them invalid on the admin check', async () => {
    const student = await server.createActiveStudent();
    const refused = await server.client().adminLogin(student);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(serverMessages.studentOnAdminSignIn);
    const { client } = await server.studentClient(student);
    expect((await client.get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });
  });

  it('answers wrong admin credentials with the generic 401', async () => {
    const admin = await server.createAdmin();
    const res = await server.client().adminLogin({ username: admin.username, password: 'Nope@12345' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(serverMessages.badCredentials);
  });

  it('reports signed-out visitors invalid and ends the admin session at logout', async () => {
    expect((await server.client().get('/api/admin/auth/admincheck')).body).toEqual({ valid: false });
    const { client } = await server.adminClient();
    const token = client.token;
    expect((await client.post('/api/admin/logout')).status).toBe(200);
    const replay = await server
      .client()
      .get('/api/admin/auth/admincheck', { authorization: `Bearer ${token}` });
    expect(replay.body).toEqual({ valid: false });
  });

  it('does not cap admin sessions', async () => {
    const admin = await server.createAdmin();
    const clients = [];
    for (let i = 0; i < 4; i++) {
      const client = server.client();
      await client.adminLogin(admin);
      clients.push(client);
      server.clock.advance(1000);
    }
    for (const client of clients)
      expect((await client.get('/api/admin/auth/admincheck')).body.valid).toBe(true);
  });
});

describe('the first admin (ADMIN_USERNAME)', () => {
  const server = suiteServer({
    engine: 'pglite',
    env: { ADMIN_USERNAME: 'ops-lead', ADMIN_PASSWORD: 'First@Admin12' },
  });

  it('is named at the first start, signs in under that name, and is written to the audit log once', async () => {
    expect(await ensureFirstAdmin(server.ctx)).toEqual({ username: 'ops-lead', password: undefined });
    expect(await ensureFirstAdmin(server.ctx)).toBeNull();
    const client = server.client();
    expect((await client.adminLogin({ username: 'admin', password: 'First@Admin12' })).status).toBe(401);
    expect((await client.adminLogin({ username: 'ops-lead', password: 'First@Admin12' })).status).toBe(200);
    const created = await server.ctx.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'admin.created'));
    expect(created).toEqual([{ details: { by: 'first start' } }]);

    // Signing out ends the session and says so in the audit log, with the address.
    expect((await client.post('/api/admin/logout')).status).toBe(200);
    const ended = await server.ctx.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'session.ended'));
    expect(ended).toEqual([{ details: { by: 'sign-out', ip: '127.0.0.1' } }]);
  });
});
