import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminMessages, adminToasts, validation } from '../../contract/messages';
import { testEngines } from '../../../test/support/databases';
import type { TestClient } from '../../../test/support/http-client';
import { OPEN_TIME, TestServer } from '../../../test/support/test-server';
import { auditOf, createCourseVia, UNKNOWN } from '../../../test/support/course-fixtures';

const DAY = 86_400_000;
describe.each(testEngines())('course access (%s)', (engine) => {
  let server: TestServer;
  let admin: TestClient;
  let adminId: string;
  let adminLogin: { username: string; password: string };
  beforeAll(async () => {
    server = await TestServer.start({ engine });
    const created = await server.createAdmin();
    adminId = created.id;
    adminLogin = { username: created.username, password: created.password };
  });
  afterAll(() => server?.close());

  /** Signs the admin in at the clock's current time (a session lasts a day; some tests travel weeks). */
  async function signInAdmin() {
    admin = server.client();
    const res = await admin.adminLogin(adminLogin);
    expect(res.status).toBe(200);
  }
  /** Moves the fake clock and signs in again. */
  async function travel(ms: number) {
    server.clock.advance(ms);
    await signInAdmin();
  }
  beforeEach(async () => {
    server.clock.set(OPEN_TIME);
    await signInAdmin();
  });

  const at = (offsetMs: number) => new Date(server.clock.now().getTime() + offsetMs).toISOString();
  const grant = (body: Record<string, unknown>) => admin.post('/api/admin/course/grantaccess', body);
  const revoke = (body: Record<string, unknown>) => admin.post('/api/admin/course/revokeaccess', body);

  it('enrols a student who has no enrollment yet, for N days from now, and audits it', async () => {
    const course = await createCourseVia(admin);
    const student = await server.createActiveStudent();
    const expected = at(30 * DAY);
    const res = await grant({ courseId: course._id, studentId: student.id, days: 30 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: adminToasts.courseAccessGranted,
      access: {
        courseId: course._id,
        studentid: student.id,
        accessexpiration: expected,
        accessrevoked: false,
        accessrevokedreason: null,
      },
    });
    const [event] = await auditOf(server, student.id);
    expect(event).toMatchObject({
      action: 'course.enrol',
      actorId: adminId,
      courseId: course._id,
      oldExpiration: null,
      newExpiration: new Date(expected),
      at: server.clock.now(),
    });
  });

  it('extends from the current expiry when it is later than now, and from now once it has passed', async () => {
    const start = server.clock.now().getTime();
    const course = await createCourseVia(admin);
    const student = await server.createActiveStudent();
    await grant({ courseId: course._id, studentId: student.id, days: 30 });

    await travel(10 * DAY);
    const extended = await grant({ courseId: course._id, studentId: student.id, days: 5 });
    expect(extended.body.access.accessexpiration).toBe(new Date(start + 35 * DAY).toISOString());

    await travel(40 * DAY); // now start + 50 days: the access ran out at start + 35
    const renewed = await grant({ courseId: course._id, studentId: student.id, days: '7' });
    expect(renewed.status).toBe(200);
    expect(renewed.body.access.accessexpiration).toBe(new Date(start + 57 * DAY).toISOString());

    const events = await auditOf(server, student.id);
    expect(
      events.map((e) => [e.action, e.oldExpiration?.getTime() ?? null, e.newExpiration?.getTime()]),
    ).toEqual([
      ['course.enrol', null, start + 30 * DAY],
      ['course.extend', start + 30 * DAY, start + 35 * DAY],
      ['course.grant', start + 35 * DAY, start + 57 * DAY],
    ]);
  });

  it("takes accessexpiration as the spec's number of days, added to the later of now and the current expiry", async () => {
    const start = server.clock.now().getTime();
    const course = await createCourseVia(admin);
    const student = await server.createActiveStudent();
    const enrolled = await grant({ courseId: course._id, studentId: student.id, accessexpiration: 30 });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.access.accessexpiration).toBe(new Date(start + 30 * DAY).toISOString());

    await travel(10 * DAY);
    const extended = await grant({ courseId: course._id, studentId: student.id, accessexpiration: '5' });
    expect(extended.body.access.accessexpiration).toBe(new Date(start + 35 * DAY).toISOString());

    for (const bad of [0, -3, 3651, 1.5, '12.5']) {
      const res = await grant({ courseId: course._id, studentId: student.id, accessexpiration: bad });
      expect([res.status, res.body.message]).toEqual([400, validation.grantDays]);
    }
    const both = await grant({ courseId: course._id, studentId: student.id, accessexpiration: 5, days: 5 });
    expect([both.status, both.body.message]).toEqual([400, adminMessages.daysOrExpiry]);
    const events = await auditOf(server, student.id);
    expect(events.map((e) => [e.action, e.details])).toEqual([
      ['course.enrol', { days: 30 }],
      ['course.extend', { days: 5 }],
    ]);
  });

  it('sets an explicit future expiry, and refuses one in the past', async () => {
    const course = await createCourseVia(admin);
    const student = await server.createActiveStudent();
    const when = at(90 * DAY);
    const res = await grant({ courseId: course._id, studentId: student.id, accessexpiration: when });
    expect(res.status).toBe(200);
    expect(res.body.access.accessexpiration).toBe(when);

    const past = await grant({ courseId: course._id, studentId: student.id, accessexpiration: at(-DAY) });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(adminMessages.expiryPast);
    const garbage = await grant({ courseId: course._id, studentId: student.id, accessexpiration: 'soon' });
    expect(garbage.body.message).toBe(adminMessages.expiryInvalid);
  });

  it.each([[{}], [{ days: 0 }], [{ days: 3651 }], [{ days: 'abc' }], [{ days: 1.5 }], [{ days: '' }]])(
    'refuses a grant with %j: 400 "Please enter valid days!"',
    async (days) => {
      const course = await createCourseVia(admin);
      const student = await server.createActiveStudent();
      const res = await grant({ courseId: course._id, studentId: student.id, ...days });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: validation.grantDays });
      expect(await auditOf(server, student.id)).toEqual([]);
    },
  );

  it('accepts the bounds 1 and 3650 days, and refuses days together with an expiry', async () => {
    const course = await createCourseVia(admin);
    const student = await server.createActiveStudent();
    expect((await grant({ courseId: course._id, studentId: student.id, days: 1 })).status).toBe(200);
    expect((await grant({ courseId: course._id, studentId: student.id, days: 3650 })).status).toBe(200);
    const both = await grant({
      courseId: course._id,
      studentId: student.id,
      days: 3,
      accessexpiration: at(DAY),
    });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe(adminMessages.daysOrExpiry);
  });

  it('answers 404 for an unknown course or student, and for an admin given as the student', async () => {
    const course = await createCourseVia(admin);
    const student = await server.createActiveStudent();
    const cases = [
      [{ courseId: UNKNOWN, studentId: student.id }, adminMessages.courseNotFound],
      [{ courseId: 'x', studentId: student.id }, adminMessages.courseNotFound],
      [{ courseId: course._id, studentId: UNKNOWN }, adminMessages.studentNotFound],
      [{ courseId: course._id, studentId: adminId }, adminMessages.studentNotFound],
    ] as const;
    for (const [ids, message] of cases) {
      const granted = await grant({ ...ids, days: 5 });
      expect([granted.status, granted.body.message]).toEqual([404, message]);
      const revoked = await revoke({ ...ids, accessrevokedreason: 'fees' });
      expect([revoked.status, revoked.body.message]).toEqual([404, message]);
    }
  });

  it('revokes with a reason, refuses a second revoke, and a later grant restores access and clears the reason', async () => {
    const course = await createCourseVia(admin);
    const student = await server.createActiveStudent();
    const notYet = await revoke({ courseId: course._id, studentId: student.id, accessrevokedreason: 'fees' });
    expect([notYet.status, notYet.body.message]).toEqual([404, adminMessages.notEnrolled]);

    const granted = await grant({ courseId: course._id, studentId: student.id, days: 30 });
    expect(granted.body.access).toMatchObject({ courseId: course._id, studentid: student.id });
    const expiry = granted.body.access.accessexpiration;

    for (const reason of ['', '   ', undefined]) {
      const blank = await revoke({
        courseId: course._id,
        studentId: student.id,
        accessrevokedreason: reason,
      });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toBe(validation.revokeReason);
    }

    await travel(DAY);
    const res = await revoke({
      courseId: course._id,
      studentId: student.id,
      accessrevokedreason: '  Fees unpaid  ',
    });
    expect(res.status).toBe(200);
    // The access the grant answered (this course, this student, the same expiry), now revoked with
    // the reason trimmed.
    expect(res.body).toEqual({
      message: adminToasts.courseAccessRevoked,
      access: { ...granted.body.access, accessrevoked: true, accessrevokedreason: 'Fees unpaid' },
    });
    const again = await revoke({ courseId: course._id, studentId: student.id, accessrevokedreason: 'twice' });
    expect([again.status, again.body.message]).toEqual([409, adminMessages.alreadyRevoked]);

    await travel(DAY);
    const regrant = await grant({ courseId: course._id, studentId: student.id, days: 10 });
    expect(regrant.body.access).toMatchObject({ accessrevoked: false, accessrevokedreason: null });
    // Still 28 days to run on the old expiry: the 10 days come on top of it.
    expect(regrant.body.access.accessexpiration).toBe(new Date(Date.parse(expiry) + 10 * DAY).toISOString());

    const events = await auditOf(server, student.id);
    expect(events.map((e) => [e.action, e.reason, e.actorId])).toEqual([
      ['course.enrol', null, adminId],
      ['course.revoke', 'Fees unpaid', adminId],
      ['course.grant', null, adminId],
    ]);
    expect(events[1]!.oldExpiration!.toISOString()).toBe(expiry);
  });

  it('lists every course with its students and their access state, and one course on request', async () => {
    const course = await createCourseVia(admin, { name: 'Access List Course', batch: 21 });
    const empty = await createCourseVia(admin, { name: 'Nobody Here', batch: 21 });
    const a = await server.createActiveStudent();
    const b = await server.createActiveStudent();
    await grant({ courseId: course._id, studentId: a.id, days: 10 });
    await grant({ courseId: course._id, studentId: b.id, days: 10 });
    await revoke({ courseId: course._id, studentId: b.id, accessrevokedreason: 'Dropped out' });

    const res = await admin.get('/api/admin/course/accesslist');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const entry = res.body.courseAccessList.find((e: any) => e.courseId === course._id);
    expect(entry).toEqual({
      courseId: course._id,
      courseName: 'Access List Course',
      batch: 21,
      students: [
        {
          studentid: a.id,
          rollno: a.rollno,
          name: expect.any(String),
          email: a.email,
          accessexpiration: at(10 * DAY),
          accessrevoked: false,
          accessrevokedreason: null,
        },
        expect.objectContaining({ studentid: b.id, accessrevoked: true, accessrevokedreason: 'Dropped out' }),
      ],
    });
    expect(res.body.courseAccessList.find((e: any) => e.courseId === empty._id).students).toEqual([]);

    const one = await admin.get(`/api/admin/course/accesslist?courseId=${course._id}`);
    expect(one.body.courseAccessList).toEqual([entry]);
    const unknown = await admin.get(`/api/admin/course/accesslist?courseId=${UNKNOWN}`);
    expect(unknown.status).toBe(404);
  });

  it('lists the students of a course for the dropdowns', async () => {
    const course = await createCourseVia(admin);
    const a = await server.createActiveStudent();
    await server.createActiveStudent(); // not enrolled
    await grant({ courseId: course._id, studentId: a.id, days: 10 });
    const res = await admin.post('/api/admin/students/dropdown', { courseid: course._id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      students: [{ _id: a.id, rollno: a.rollno, name: expect.any(String), email: a.email }],
    });
    const unknown = await admin.post('/api/admin/students/dropdown', { courseid: UNKNOWN });
    expect([unknown.status, unknown.body.message]).toEqual([404, adminMessages.courseNotFound]);
    const missing = await admin.post('/api/admin/students/dropdown', {});
    expect(missing.status).toBe(400);
  });
});
