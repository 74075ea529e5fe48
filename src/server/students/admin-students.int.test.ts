import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminMessages, adminToasts, serverMessages, validation } from '../../contract/messages';
import { auditOf, createCourseVia, UNKNOWN } from '../../../test/support/course-fixtures';
import { users } from '../db/schema';
import { testEngines } from '../../../test/support/databases';

import { suiteAdmin, suiteServer } from '../../../test/support/test-server';

describe.each(testEngines())('student management (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  const studentCount = async () =>
    (await server.ctx.db.select({ n: count() }).from(users).where(eq(users.role, 'student')))[0]!.n;
  const passwordIn = (text: string) => text.match(/Initial password: (\S+)/)?.[1];

  it('adds a student and mails an initial password that signs them in to the first-login reset', async () => {
    const before = server.smtp.mails.length;
    const res = await admin.post('/api/admin/students', {
      rollno: 'WD-101',
      name: 'Asha Rao',
      email: 'asha@example.test',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: adminMessages.studentAdded,
      mailed: true,
      student: {
        rollno: 'WD-101',
        name: 'Asha Rao',
        email: 'asha@example.test',
        username: 'wd-101',
        firstlogin: true,
        lastSignInAt: null,
        courses: [],
      },
    });
    expect(res.body.student).not.toHaveProperty('passwordHash');
    const mail = await server.smtp.waitFor('asha@example.test', before);
    expect(mail.text).toContain('Username: wd-101');
    const password = passwordIn(mail.text)!;
    const signIn = await server.client().post('/api/signin', { username: 'wd-101', password });
    expect(signIn.status).toBe(200);
    expect(signIn.body.message).toContain('First Sign-in');
  });

  it('refuses a student whose roll number or e-mail is taken (409) or whose fields are invalid (400)', async () => {
    await admin.post('/api/admin/students', { rollno: 'DUP-1', name: 'First', email: 'dup1@example.test' });
    const taken = await admin.post('/api/admin/students', {
      rollno: 'dup-1',
      name: 'Second',
      email: 'DUP1@example.test',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/already exists/);
    const invalid = await admin.post('/api/admin/students', {
      rollno: 'X-1',
      name: 'Bad',
      email: 'not-an-email',
    });
    expect([invalid.status, invalid.body.message]).toEqual([400, 'Please enter a valid e-mail address.']);
  });

  it('still adds the student when the mail cannot be sent, and says so', async () => {
    server.smtp.refuse = true;
    try {
      const res = await admin.post('/api/admin/students', {
        rollno: 'NM-1',
        name: 'No Mail',
        email: 'nomail@example.test',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ message: adminMessages.studentAddedMailFailed, mailed: false });
    } finally {
      server.smtp.refuse = false;
    }
  });

  it('previews a CSV with a bad row without writing anything, and refuses to commit it', async () => {
    const csv = [
      'rollno,name,email',
      'CSV-1,Ravi Kumar,ravi@example.test',
      'CSV-2,,meera@example.test',
      'CSV-3,Ravi Again,ravi@example.test',
    ].join('\n');
    const before = await studentCount();
    const preview = await admin.post('/api/admin/students/import/preview', { csv });
    expect(preview.status).toBe(200);
    expect(preview.body.valid).toBe(false);
    expect(preview.body.rows.map((r: any) => [r.line, r.problems.length > 0])).toEqual([
      [2, false],
      [3, true],
      [4, true],
    ]);
    expect(preview.body.rows[2].problems).toContain('e-mail repeats line 2');

    const commit = await admin.post('/api/admin/students/import', { csv });
    expect(commit.status).toBe(400);
    expect(commit.body.message).toMatch(/^Nothing was imported\. Line 3: .*Line 4: /);
    expect(commit.body.preview.valid).toBe(false);
    expect(await studentCount()).toBe(before);
  });

  it('imports a valid CSV all at once and mails each new student their password', async () => {
    const csv = 'rollno,name,email\nIMP-1,Kiran Das,kiran@example.test\nIMP-2,Lata Iyer,lata@example.test\n';
    const preview = await admin.post('/api/admin/students/import/preview', { csv });
    expect(preview.body).toMatchObject({ valid: true, fileProblems: [] });
    const mailsBefore = server.smtp.mails.length;
    const res = await admin.post('/api/admin/students/import', { csv });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ message: 'Imported 2 students.', imported: 2, mailFailures: [] });
    expect(res.body.students.map((s: any) => s.rollno)).toEqual(['IMP-1', 'IMP-2']);
    for (const email of ['kiran@example.test', 'lata@example.test']) {
      expect(passwordIn((await server.smtp.waitFor(email, mailsBefore)).text)).toBeTruthy();
    }
    // The same file again: every row now collides, nothing is written.
    const again = await admin.post('/api/admin/students/import', { csv });
    expect(again.status).toBe(400);
    const empty = await admin.post('/api/admin/students/import/preview', { csv: '' });
    expect([empty.status, empty.body.message]).toEqual([400, adminMessages.csvRequired]);
  });

  it('lists and searches students with their courses, a page at a time', async () => {
    const course = await createCourseVia(admin, { name: 'Search Course' });
    const made = [];
    for (const n of [1, 2, 3]) {
      made.push(
        (
          await admin.post('/api/admin/students', {
            rollno: `SRCH-${n}`,
            name: `Findable ${n}`,
            email: `find${n}@school.test`,
            username: `finder${n}`,
          })
        ).body.student,
      );
    }
    await admin.post('/api/admin/course/grantaccess', {
      courseId: course._id,
      studentId: made[0]._id,
      days: 5,
    });
    await admin.post('/api/admin/course/revokeaccess', {
      courseId: course._id,
      studentId: made[0]._id,
      accessrevokedreason: 'Left',
    });

    const page1 = await admin.get('/api/admin/students?q=srch&pageSize=2');
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page1.body.students.map((s: any) => s.rollno)).toEqual(['SRCH-1', 'SRCH-2']);
    expect(page1.body.students[0].courses).toEqual([
      {
        courseId: course._id,
        name: 'Search Course',
        batch: course.batch,
        accessexpiration: expect.any(String),
        accessrevoked: true,
        accessrevokedreason: 'Left',
        access: 'revoked',
      },
    ]);
    const page2 = await admin.get('/api/admin/students?q=srch&pageSize=2&page=2');
    expect(page2.body.students.map((s: any) => s.rollno)).toEqual(['SRCH-3']);

    for (const q of ['FINDABLE 2', 'find2@school', 'finder2']) {
      const res = await admin.get(`/api/admin/students?q=${encodeURIComponent(q)}`);
      expect([q, res.body.students.map((s: any) => s.rollno)]).toEqual([q, ['SRCH-2']]);
    }
    expect((await admin.get('/api/admin/students?q=%25')).body.total).toBe(0); // a literal %, not a wildcard
    const inCourse = await admin.get(`/api/admin/students?courseId=${course._id}`);
    expect(inCourse.body.students.map((s: any) => s.rollno)).toEqual(['SRCH-1']);
    expect((await admin.get(`/api/admin/students?courseId=${UNKNOWN}`)).status).toBe(404);
    expect((await admin.get('/api/admin/students?pageSize=1000')).status).toBe(400);
  });

  it('lists the students enrolled in no course with unassigned=true', async () => {
    const course = await createCourseVia(admin);
    const enrolled = await server.createActiveStudent();
    const loose = await server.createActiveStudent();
    await admin.post('/api/admin/course/grantaccess', {
      courseId: course._id,
      studentId: enrolled.id,
      days: 5,
    });
    const res = await admin.get('/api/admin/students?unassigned=true&pageSize=200');
    expect(res.status).toBe(200);
    const ids = res.body.students.map((s: any) => s._id);
    expect(ids).toContain(loose.id);
    expect(ids).not.toContain(enrolled.id);
    expect(res.body.students.every((s: any) => s.courses.length === 0)).toBe(true);
    expect((await admin.get('/api/admin/students?unassigned=maybe')).status).toBe(400);
  });

  it('shows the last sign-in of a student', async () => {
    const { student } = await server.studentClient();
    const res = await admin.get(`/api/admin/students?q=${student.username}`);
    expect(res.body.students[0].lastSignInAt).toBe(server.clock.now().toISOString());
  });

  it('enrols selected students for N days, extending those already enrolled, each audited', async () => {
    const course = await createCourseVia(admin);
    const a = await server.createActiveStudent();
    const b = await server.createActiveStudent();
    await admin.post('/api/admin/course/grantaccess', { courseId: course._id, studentId: a.id, days: 10 });

    const res = await admin.post('/api/admin/students/enrol', {
      courseId: course._id,
      studentIds: [a.id, b.id],
      days: 30,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: adminToasts.courseAccessGranted,
      enrolled: 1,
      granted: 0,
      extended: 1,
    });
    const list = (await admin.get(`/api/admin/course/accesslist?courseId=${course._id}`)).body
      .courseAccessList[0];
    const day = 86_400_000;
    const expiry = (id: string) => list.students.find((s: any) => s.studentid === id).accessexpiration;
    expect(expiry(a.id)).toBe(new Date(server.clock.now().getTime() + 40 * day).toISOString());
    expect(expiry(b.id)).toBe(new Date(server.clock.now().getTime() + 30 * day).toISOString());
    expect((await auditOf(server, b.id)).map((e) => [e.action, e.actorId])).toEqual([
      ['course.enrol', admin.id],
    ]);

    const cases: [Record<string, unknown>, number, string][] = [
      [{ studentIds: [] }, 400, validation.noStudents],
      [{ days: 0 }, 400, validation.grantDays],
      [{ courseId: UNKNOWN }, 404, adminMessages.courseNotFound],
      [{ studentIds: [a.id, UNKNOWN] }, 404, adminMessages.studentNotFound],
    ];
    for (const [change, status, message] of cases) {
      const refused = await admin.post('/api/admin/students/enrol', {
        courseId: course._id,
        studentIds: [b.id],
        days: 5,
        ...change,
      });
      expect([change, refused.status, refused.body.message]).toEqual([change, status, message]);
    }
  });

  it('re-sends an initial password: the old one stops working and open sessions end', async () => {
    const { client, student } = await server.studentClient();
    const before = server.smtp.mails.length;
    const res = await admin.post(`/api/admin/students/${student.id}/password`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(adminMessages.passwordResent);
    const password = passwordIn((await server.smtp.waitFor(student.email, before)).text)!;
    expect((await client.get('/api/auth/check')).body).toEqual({ valid: false });
    const old = await server
      .client()
      .post('/api/signin', { username: student.username, password: student.password });
    expect([old.status, old.body.message]).toEqual([401, serverMessages.badCredentials]);
    const fresh = await server.client().post('/api/signin', { username: student.username, password });
    expect(fresh.body.message).toContain('First Sign-in');

    for (const id of [UNKNOWN, admin.id, 'nonsense']) {
      const missing = await admin.post(`/api/admin/students/${id}/password`);
      expect([missing.status, missing.body.message]).toEqual([404, adminMessages.studentNotFound]);
    }
  });

  it('shows a student’s access history newest first, with who changed what', async () => {
    const course = await createCourseVia(admin, { name: 'History Course', batch: 9 });
    const student = await server.createActiveStudent();
    const grantedAt = server.clock.now();
    await admin.post('/api/admin/course/grantaccess', {
      courseId: course._id,
      studentId: student.id,
      days: 30,
    });
    server.clock.advance(60_000);
    await admin.post('/api/admin/course/revokeaccess', {
      courseId: course._id,
      studentId: student.id,
      accessrevokedreason: 'Fees unpaid',
    });

    const res = await admin.get(`/api/admin/students/${student.id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.student).toEqual({
      _id: student.id,
      rollno: student.rollno,
      name: expect.any(String),
      email: student.email,
    });
    const expiry = new Date(grantedAt.getTime() + 30 * 86_400_000).toISOString();
    expect(res.body.events).toEqual([
      {
        _id: expect.any(String),
        at: server.clock.now().toISOString(),
        action: 'course.revoke',
        actor: { _id: admin.id, name: expect.any(String), username: expect.any(String) },
        course: { _id: course._id, name: 'History Course', batch: 9 },
        video: null,
        oldexpiration: expiry,
        newexpiration: expiry,
        reason: 'Fees unpaid',
      },
      expect.objectContaining({
        action: 'course.enrol',
        oldexpiration: null,
        newexpiration: expiry,
        at: grantedAt.toISOString(),
      }),
    ]);
    expect((await admin.get(`/api/admin/students/${UNKNOWN}/history`)).status).toBe(404);
  });
});
