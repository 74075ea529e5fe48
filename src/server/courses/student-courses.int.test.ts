import { describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { testEngines } from '../../../test/support/databases';

import { OPEN_TIME, suiteAdmin, suiteServer } from '../../../test/support/test-server';
import { createCourseVia, PNG_DATA_URL } from '../../../test/support/course-fixtures';

const HOUR = 3_600_000;

describe.each(testEngines())('student course list (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  it('lists only the courses the student is enrolled in, with active, expired and revoked told apart', async () => {
    server.clock.set(OPEN_TIME);
    const { client, student } = await server.studentClient();
    const other = await server.createActiveStudent();
    const active = await createCourseVia(admin, {
      name: 'Active course',
      thumbnail: PNG_DATA_URL,
      startdate: '2026-03-03',
    });
    const expiring = await createCourseVia(admin, { name: 'Expiring course', startdate: '2026-03-02' });
    const revoked = await createCourseVia(admin, { name: 'Revoked course', startdate: '2026-03-01' });
    const notMine = await createCourseVia(admin, { name: 'Someone else’s course' });

    const grant = (courseId: string, studentId: string, extra: object) =>
      admin.post('/api/admin/course/grantaccess', { courseId, studentId, ...extra });
    await grant(active._id, student.id, { days: 30 });
    const soon = new Date(server.clock.now().getTime() + HOUR).toISOString();
    await grant(expiring._id, student.id, { accessexpiration: soon });
    await grant(revoked._id, student.id, { days: 30 });
    await admin.post('/api/admin/course/revokeaccess', {
      courseId: revoked._id,
      studentId: student.id,
      accessrevokedreason: 'Fees unpaid',
    });
    await grant(notMine._id, other.id, { days: 30 });

    const before = await client.get('/api/courses');
    expect(before.status).toBe(200);
    expect(before.body.courses.map((c: any) => [c.name, c.access])).toEqual([
      ['Active course', 'active'],
      ['Expiring course', 'active'],
      ['Revoked course', 'revoked'],
    ]);

    server.clock.advance(2 * HOUR); // still within opening hours, past the short grant
    const after = await client.get('/api/courses');
    const byName = Object.fromEntries(after.body.courses.map((c: any) => [c.name, c]));
    expect(byName['Expiring course']).toMatchObject({
      access: 'expired',
      accessrevoked: false,
      accessexpiration: soon,
    });
    expect(byName['Revoked course']).toMatchObject({
      access: 'revoked',
      accessrevoked: true,
      accessrevokedreason: 'Fees unpaid',
    });
    expect(byName['Active course']).toEqual({
      courseId: active._id,
      name: 'Active course',
      description: expect.any(String),
      thumbnail: expect.stringMatching(/^\/thumbnails\/[0-9a-f]{64}\.png$/),
      batch: 7,
      startdate: '2026-03-03',
      enddate: '2026-08-31',
      accessexpiration: new Date(Date.parse(OPEN_TIME) + 30 * 24 * HOUR).toISOString(),
      accessrevoked: false,
      accessrevokedreason: null,
      access: 'active',
      progress: { total: 0, completed: 0, nextVideoId: null, watchedShare: 0 },
    });
    server.clock.set(OPEN_TIME);
  });

  it('gives an empty list to a student without courses', async () => {
    const { client } = await server.studentClient();
    expect((await client.get('/api/courses')).body).toEqual({ courses: [] });
  });

  it('refuses the signed out (401), admins (403) and first-login sessions (403)', async () => {
    expect((await server.client().get('/api/courses')).status).toBe(401);
    const asAdmin = await admin.get('/api/courses');
    expect([asAdmin.status, asAdmin.body.message]).toEqual([403, serverMessages.studentsOnly]);
    const fresh = await server.createStudent();
    const firstLogin = server.client();
    await firstLogin.post('/api/signin', { username: fresh.username, password: fresh.password });
    const limited = await firstLogin.get('/api/courses');
    expect([limited.status, limited.body.message]).toEqual([403, serverMessages.sessionLimitedToReset]);
  });
});
