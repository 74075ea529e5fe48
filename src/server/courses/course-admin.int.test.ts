import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminMessages, adminToasts, serverMessages, validation } from '../../contract/messages';
import { users } from '../db/schema';
import { testEngines } from '../../../test/support/databases';

import { suiteAdmin, suiteServer } from '../../../test/support/test-server';
import {
  courseBody,
  createCourseVia,
  enrolVia,
  insertFinalizedVideo,
  PNG_DATA_URL,
} from '../../../test/support/course-fixtures';

/** Every admin route of this issue, with a body that would otherwise be acceptable in shape. */
const ADMIN_ROUTES: [string, string][] = [
  ['GET', '/api/admin/course/dashboard'],
  ['GET', '/api/admin/course/list'],
  ['GET', '/api/admin/video/courses'],
  ['GET', '/api/admin/video/editlist'],
  ['GET', '/api/admin/getvideolist'],
  ['POST', '/api/admin/students/access'],
  ['POST', '/api/admin/students/dropdown'],
  ['POST', '/api/admin/video/upload'],
  ['POST', '/api/admin/video/grant'],
  ['POST', '/api/admin/video/revoke'],
  ['POST', '/api/admin/delete/video'],
  ['POST', '/api/admin/video/update'],
  ['POST', '/api/admin/course/create'],
  ['POST', '/api/admin/course/update'],
  ['GET', '/api/admin/course/accesslist'],
  ['POST', '/api/admin/course/grantaccess'],
  ['POST', '/api/admin/course/revokeaccess'],
  ['GET', '/api/admin/students'],
  ['POST', '/api/admin/students'],
  ['POST', '/api/admin/students/import/preview'],
  ['POST', '/api/admin/students/import'],
  ['POST', '/api/admin/students/enrol'],
  ['POST', '/api/admin/students/00000000-0000-4000-8000-000000000000/password'],
  ['GET', '/api/admin/students/00000000-0000-4000-8000-000000000000/history'],
];

describe.each(testEngines())('admin courses (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  it('answers every admin route with 401 signed out and 403 for a student, before reading the body', async () => {
    const { client: student } = await server.studentClient();
    const anonymous = server.client();
    for (const [method, path] of ADMIN_ROUTES) {
      const json = method === 'POST' ? {} : undefined;
      const out = await anonymous.request(method, path, { json });
      expect([path, out.status, out.body.message]).toEqual([path, 401, serverMessages.notSignedIn]);
      const refused = await student.request(method, path, { json });
      expect([path, refused.status, refused.body.message]).toEqual([path, 403, serverMessages.adminsOnly]);
    }
  });

  it('creates a course with a thumbnail and shows it on the dashboard, the edit list and the upload dropdown', async () => {
    const res = await admin.post(
      '/api/admin/course/create',
      courseBody({ name: 'Data Science', thumbnail: PNG_DATA_URL }),
    );
    // 200 like POST /video/upload, the spec's other create call (README, "API notes").
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(adminToasts.courseCreated);
    const course = res.body.course;
    expect(course).toMatchObject({
      batch: 7,
      name: 'Data Science',
      startdate: '2026-03-01',
      enddate: '2026-08-31',
      totalvideos: 0,
      totalstudents: 0,
    });
    expect(course.thumbnail).toMatch(/^\/thumbnails\/[0-9a-f]{64}\.png$/);
    const image = await admin.get(course.thumbnail);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');

    for (const [path, key] of [
      ['/api/admin/course/dashboard', 'courses'],
      ['/api/admin/course/list', 'course'],
      ['/api/admin/video/courses', 'courses'],
    ] as const) {
      const list = await admin.get(path);
      expect(list.status).toBe(200);
      expect(list.body[key]).toContainEqual(course);
    }
  });

  it('counts videos and enrolled students of each course in the overview', async () => {
    const course = await createCourseVia(admin);
    const other = await createCourseVia(admin);
    const [a, b] = [await server.createActiveStudent(), await server.createActiveStudent()];
    await enrolVia(admin, course._id, [a.id, b.id]);
    await enrolVia(admin, other._id, [a.id]);
    await insertFinalizedVideo(server, { courseId: course._id });
    await insertFinalizedVideo(server, { courseId: course._id });
    await insertFinalizedVideo(server); // unassigned: counted nowhere
    const { body } = await admin.get('/api/admin/course/dashboard');
    const row = (id: string) => body.courses.find((c: any) => c._id === id);
    expect(row(course._id)).toMatchObject({ totalvideos: 2, totalstudents: 2 });
    expect(row(other._id)).toMatchObject({ totalvideos: 0, totalstudents: 1 });
  });

  it('keeps the overview and the full access list exact after each change, wherever it comes from', async () => {
    const course = await createCourseVia(admin);
    const student = await server.createActiveStudent();
    const overview = async () =>
      (await admin.get('/api/admin/course/dashboard')).body.courses.find((c: any) => c._id === course._id);
    const roster = async () =>
      (await admin.get('/api/admin/course/accesslist')).body.courseAccessList.find(
        (e: any) => e.courseId === course._id,
      ).students;

    expect(await overview()).toMatchObject({ totalvideos: 0, totalstudents: 0 });
    expect(await roster()).toEqual([]);

    await enrolVia(admin, course._id, [student.id]);
    expect(await overview()).toMatchObject({ totalstudents: 1 });
    expect((await roster()).map((s: any) => s.studentid)).toEqual([student.id]);

    await admin.post('/api/admin/course/revokeaccess', {
      courseId: course._id,
      studentId: student.id,
      accessrevokedreason: 'r',
    });
    expect((await roster())[0].accessrevoked).toBe(true);

    // Writes from other parts of the app: the streamer adding a video, a student renamed elsewhere.
    const video = await insertFinalizedVideo(server, { courseId: course._id });
    expect(await overview()).toMatchObject({ totalvideos: 1 });
    await server.ctx.db.update(users).set({ name: 'Renamed Student' }).where(eq(users.id, student.id));
    expect((await roster())[0].name).toBe('Renamed Student');

    await admin.post('/api/admin/delete/video', { videoId: video.id });
    await admin.post('/api/admin/course/update', {
      courseId: course._id,
      batch: 7,
      courseCode: course.coursecode,
      name: 'Renamed Course',
      description: 'd',
      startDate: '2026-03-01',
      endDate: '2026-08-31',
    });
    expect(await overview()).toMatchObject({ totalvideos: 0, name: 'Renamed Course' });
    const list = (await admin.get('/api/admin/course/list')).body.course;
    expect(list.find((c: any) => c._id === course._id).name).toBe('Renamed Course');
  });

  it('sends the cached lists gzip-compressed to clients that accept it, and plain to others', async () => {
    await createCourseVia(admin);
    for (const path of ['/api/admin/course/dashboard', '/api/admin/course/accesslist']) {
      const headers = { cookie: `token=${admin.token}` };
      const zipped = await fetch(`${server.url}${path}`, {
        headers: { ...headers, 'accept-encoding': 'gzip' },
      });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
      const plain = await fetch(`${server.url}${path}`, {
        headers: { ...headers, 'accept-encoding': 'identity' },
      });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await zipped.json()).toEqual(await plain.json());
    }
  });

  it.each([
    [{ batch: 'seven' }, validation.batch],
    [{ batch: undefined }, validation.batch],
    [{ batch: 2.5 }, validation.batch],
    [{ coursecode: '   ' }, validation.courseCode],
    [{ name: '' }, validation.courseName],
    [{ description: undefined }, validation.courseDescription],
    [{ startdate: '' }, validation.courseDates],
    [{ enddate: undefined }, validation.courseDates],
    [{ enddate: '2026-02-30' }, validation.courseDates],
    [{ startdate: '2026-09-01' }, validation.courseDateOrder],
  ])('refuses a course with %j: 400 "%s"', async (change, message) => {
    const res = await admin.post('/api/admin/course/create', courseBody(change));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  it('accepts a numeric batch typed as text and a one-day course', async () => {
    const res = await admin.post(
      '/api/admin/course/create',
      courseBody({ batch: '12', enddate: '2026-03-01' }),
    );
    expect(res.status).toBe(200);
    expect(res.body.course.batch).toBe(12);
  });

  it('refuses a thumbnail that is not a JPG or PNG', async () => {
    const gif = `data:image/gif;base64,${Buffer.from('GIF89a-not-allowed').toString('base64')}`;
    const res = await admin.post('/api/admin/course/create', courseBody({ thumbnail: gif }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The thumbnail must be a JPG or PNG image.');
  });

  it('refuses a course code already used in the same batch, in any case, with 409; another batch may reuse it', async () => {
    const first = await createCourseVia(admin, { coursecode: 'MERN-1', batch: 3 });
    const again = await admin.post(
      '/api/admin/course/create',
      courseBody({ coursecode: 'mern-1', batch: 3 }),
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(adminMessages.courseCodeTaken);
    const otherBatch = await admin.post(
      '/api/admin/course/create',
      courseBody({ coursecode: 'MERN-1', batch: 4 }),
    );
    expect(otherBatch.status).toBe(200);

    // Moving the other batch's course onto the taken code is refused too.
    const clash = await admin.post('/api/admin/course/update', {
      courseId: otherBatch.body.course._id,
      batch: 3,
      courseCode: 'MERN-1',
      name: 'x',
      description: 'y',
      startDate: '2026-01-01',
      endDate: '2026-02-01',
    });
    expect(clash.status).toBe(409);
    expect(first._id).toBeTruthy();
  });

  it('updates a course with the camelCase payload, keeping its thumbnail when none is sent', async () => {
    const created = await admin.post('/api/admin/course/create', courseBody({ thumbnail: PNG_DATA_URL }));
    const course = created.body.course;
    const update = {
      courseId: course._id,
      batch: 8,
      courseCode: course.coursecode, // its own code: not a clash
      name: 'Renamed',
      description: 'New description',
      startDate: '2026-04-01',
      endDate: '2026-10-01',
    };
    const res = await admin.post('/api/admin/course/update', update);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(adminToasts.courseUpdated);
    expect(res.body.course).toMatchObject({
      _id: course._id,
      batch: 8,
      name: 'Renamed',
      description: 'New description',
      startdate: '2026-04-01',
      enddate: '2026-10-01',
      thumbnail: course.thumbnail,
    });
    // The edit form may send back the URL it was shown: still the same file.
    const echoed = await admin.post('/api/admin/course/update', { ...update, thumbnail: course.thumbnail });
    expect(echoed.body.course.thumbnail).toBe(course.thumbnail);
  });

  it('validates an update like a create and answers 404 for an unknown course', async () => {
    const course = await createCourseVia(admin);
    const base = {
      courseId: course._id,
      batch: 1,
      courseCode: 'X1',
      name: 'n',
      description: 'd',
      startDate: '2026-05-02',
      endDate: '2026-05-01',
    };
    const order = await admin.post('/api/admin/course/update', base);
    expect(order.body).toEqual({ message: validation.courseDateOrder });
    // Lower-case create names are not the update's: its own fields are missing.
    const wrongCase = await admin.post('/api/admin/course/update', { ...courseBody(), courseId: course._id });
    expect(wrongCase.status).toBe(400);
    expect(wrongCase.body.message).toBe(validation.courseCode);
    for (const courseId of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await admin.post('/api/admin/course/update', { ...base, courseId, endDate: '2026-06-01' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(adminMessages.courseNotFound);
    }
  });

  it('answers a malformed JSON body with 400, never 500', async () => {
    const res = await admin.request('POST', '/api/admin/course/create', {
      body: '{"batch":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });
});
