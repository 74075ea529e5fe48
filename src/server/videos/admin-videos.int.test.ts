import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminMessages, adminToasts, validation } from '../../contract/messages';
import {
  auditOf,
  createCourseVia,
  enrolVia,
  insertFinalizedVideo,
  PNG_DATA_URL,
  UNKNOWN,
} from '../../../test/support/course-fixtures';
import { videoAccess, videos } from '../db/schema';
import { videoDeleteUrl, videoUrl } from './stream-urls';
import { testEngines } from '../../../test/support/databases';

import { suiteAdmin, suiteServer } from '../../../test/support/test-server';

describe.each(testEngines())('admin videos (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  /** A course with two enrolled students and a third student outside it. */
  async function courseWithStudents() {
    const course = await createCourseVia(admin);
    const a = await server.createActiveStudent();
    const b = await server.createActiveStudent();
    const outsider = await server.createActiveStudent();
    await enrolVia(admin, course._id, [a.id, b.id]);
    return { course, a, b, outsider };
  }

  const uploadBody = (videoId: string, extra: Record<string, unknown> = {}) => ({
    title: 'Closures',
    description: 'Functions that remember.',
    url: videoUrl(videoId),
    duration: '99:99',
    rollnos: [],
    ...extra,
  });

  const accessOf = async (videoId: string) =>
    (await server.ctx.db.select().from(videoAccess).where(eq(videoAccess.videoId, videoId)))
      .map((r) => r.studentId)
      .sort();

  it('saves an upload’s details, puts it last in its course and grants it to the chosen roll numbers', async () => {
    const { course, a, b } = await courseWithStudents();
    const first = await insertFinalizedVideo(server);
    const second = await insertFinalizedVideo(server, { durationSeconds: 3725 });

    const res = await admin.post(
      '/api/admin/video/upload',
      uploadBody(first.id, {
        thumbnail: PNG_DATA_URL,
        rollnos: [a.rollno.toLowerCase()],
        courses: [course._id],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(adminToasts.videoUploaded);
    expect(res.body.video).toEqual({
      _id: first.id,
      title: 'Closures',
      description: 'Functions that remember.',
      thumbnail: expect.stringMatching(/^\/thumbnails\/[0-9a-f]{64}\.png$/),
      customThumbnail: expect.stringMatching(/^\/thumbnails\//),
      url: videoUrl(first.id),
      duration: '12:34', // the probed length, not the client's
      course: { _id: course._id, name: course.name, batch: course.batch },
      deleteUrl: videoDeleteUrl(first.id),
      status: 'processing',
      failureReason: null,
      sourceName: 'lecture-01.mp4',
    });
    expect(await accessOf(first.id)).toEqual([a.id]);
    expect((await auditOf(server, a.id)).filter((e) => e.action === 'video.grant')).toMatchObject([
      { actorId: admin.id, videoId: first.id, courseId: course._id, details: { videoTitle: 'Closures' } },
    ]);

    // `courses` as a bare id works too; the next upload goes after the first.
    const next = await admin.post(
      '/api/admin/video/upload',
      uploadBody(second.id, { courses: course._id, rollnos: [a.rollno, b.rollno] }),
    );
    expect(next.status).toBe(200);
    expect(next.body.video.duration).toBe('01:02:05');
    const rows = await server.ctx.db.select().from(videos).where(eq(videos.courseId, course._id));
    expect(rows.sort((x, y) => x.position - y.position).map((r) => r.id)).toEqual([first.id, second.id]);
    expect(await accessOf(second.id)).toEqual([a.id, b.id].sort());
  });

  it('keeps an upload without a course unassigned, and refuses roll numbers for it', async () => {
    const video = await insertFinalizedVideo(server);
    const res = await admin.post('/api/admin/video/upload', uploadBody(video.id, { courses: '' }));
    expect(res.status).toBe(200);
    expect(res.body.video.course).toBeUndefined();
    expect(res.body.video.customThumbnail).toBeNull();
    const withStudents = await admin.post(
      '/api/admin/video/upload',
      uploadBody(video.id, { rollnos: ['R001'] }),
    );
    expect([withStudents.status, withStudents.body.message]).toEqual([400, adminMessages.unassignedVideo]);
  });

  it('refuses an upload call with bad details, an unknown upload or course, or roll numbers outside the course', async () => {
    const { course, outsider } = await courseWithStudents();
    const video = await insertFinalizedVideo(server);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ url: undefined }, 400, validation.videoFile],
      [{ title: '  ' }, 400, adminMessages.videoTitle],
      [{ description: undefined }, 400, adminMessages.videoDescription],
      [{ courses: [course._id, course._id] }, 400, adminMessages.oneCourse],
      [{ url: videoUrl(UNKNOWN) }, 404, adminMessages.uploadNotFound],
      [{ url: 'https://elsewhere.example/video.mp4' }, 404, adminMessages.uploadNotFound],
      [{ courses: UNKNOWN }, 404, adminMessages.courseNotFound],
      [
        { courses: course._id, rollnos: [outsider.rollno, 'NOPE-1'] },
        400,
        `These roll numbers are not students of this course: ${outsider.rollno.toLowerCase()}, nope-1.`,
      ],
    ];
    for (const [change, status, message] of cases) {
      const res = await admin.post('/api/admin/video/upload', uploadBody(video.id, change));
      expect([change, res.status, res.body.message]).toEqual([change, status, message]);
    }
    // Nothing was saved by the refused calls.
    const [row] = await server.ctx.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row).toMatchObject({ title: 'lecture-01.mp4', courseId: null });
  });

  it('lists every video with its course for both admin lists', async () => {
    const { course } = await courseWithStudents();
    const assigned = await insertFinalizedVideo(server, {
      title: 'Assigned',
      courseId: course._id,
      status: 'ready',
    });
    const loose = await insertFinalizedVideo(server, { title: 'Loose' });
    for (const path of ['/api/admin/video/editlist', '/api/admin/getvideolist']) {
      const res = await admin.get(path);
      expect(res.status).toBe(200);
      const byId = Object.fromEntries(res.body.videos.map((v: any) => [v._id, v]));
      expect(byId[assigned.id]).toMatchObject({
        title: 'Assigned',
        status: 'ready',
        course: { _id: course._id },
      });
      expect(byId[loose.id].course).toBeUndefined();
      // Unassigned videos come after the assigned ones.
      const ids = res.body.videos.map((v: any) => v._id);
      expect(ids.indexOf(assigned.id)).toBeLessThan(ids.indexOf(loose.id));
    }
  });

  it('edits a video, moving it to the end of another course or out of any course', async () => {
    const { course } = await courseWithStudents();
    const target = await createCourseVia(admin);
    await insertFinalizedVideo(server, { courseId: target._id, position: 4 });
    const video = await insertFinalizedVideo(server, { courseId: course._id });
    const edit = { videoId: video.id, title: 'Promises', description: 'Async done right.' };

    const moved = await admin.post('/api/admin/video/update', {
      ...edit,
      thumbnail: PNG_DATA_URL,
      course: target._id,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.message).toBe(adminToasts.videoUpdated);
    expect(moved.body.video).toMatchObject({
      title: 'Promises',
      description: 'Async done right.',
      course: { _id: target._id },
    });
    expect(moved.body.video.customThumbnail).toMatch(/^\/thumbnails\//);
    const [row] = await server.ctx.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row!.position).toBe(5);

    const kept = await admin.post('/api/admin/video/update', { ...edit, title: 'Kept' });
    expect(kept.body.video).toMatchObject({ title: 'Kept', course: { _id: target._id } });
    expect(kept.body.video.customThumbnail).toBe(moved.body.video.customThumbnail);

    const echoed = await admin.post('/api/admin/video/update', { ...edit, course: kept.body.video.course });
    expect(echoed.body.video.course._id).toBe(target._id);

    const out = await admin.post('/api/admin/video/update', { ...edit, course: null });
    expect(out.body.video.course).toBeUndefined();
  });

  it('moving a video keeps its grants only for students of the new course, each dropped one audited', async () => {
    const { course, a, b } = await courseWithStudents();
    const target = await createCourseVia(admin);
    await enrolVia(admin, target._id, [b.id]);
    const video = await insertFinalizedVideo(server, { courseId: course._id, title: 'Generators' });
    await admin.post('/api/admin/video/grant', { videoId: video.id, studentIds: [a.id, b.id] });
    const edit = { videoId: video.id, title: 'Generators', description: 'Lazy sequences.' };

    server.clock.advance(1_000); // the history is ordered by time
    const moved = await admin.post('/api/admin/video/update', { ...edit, course: target._id });
    expect(moved.status).toBe(200);
    // b is enrolled in both courses and keeps the video; a never joined the new course.
    expect(await accessOf(video.id)).toEqual([b.id]);
    expect((await admin.get(`/api/admin/students/${a.id}/history`)).body.events[0]).toMatchObject({
      action: 'video.revoke',
      actor: { _id: admin.id },
      reason: 'Video moved to another course',
      video: { _id: video.id, title: 'Generators' },
      course: { _id: course._id },
    });
    expect((await auditOf(server, b.id)).filter((e) => e.action === 'video.revoke')).toEqual([]);

    server.clock.advance(1_000);
    const out = await admin.post('/api/admin/video/update', { ...edit, course: null });
    expect(out.status).toBe(200);
    expect(await accessOf(video.id)).toEqual([]);
    expect((await admin.get(`/api/admin/students/${b.id}/history`)).body.events[0]).toMatchObject({
      action: 'video.revoke',
      reason: 'Video taken out of its course',
      course: { _id: target._id },
    });

    // Naming an upload into another course (the upload form) drops them the same way.
    const named = await insertFinalizedVideo(server, { courseId: course._id });
    await admin.post('/api/admin/video/grant', { videoId: named.id, studentIds: [a.id, b.id] });
    const renamed = await admin.post(
      '/api/admin/video/upload',
      uploadBody(named.id, { courses: target._id, rollnos: [] }),
    );
    expect(renamed.status).toBe(200);
    expect(await accessOf(named.id)).toEqual([b.id]);
  });

  it("an instructor moving a video between their courses keeps its students' grants: taking a video from students is the admins'", async () => {
    const { course, a, b } = await courseWithStudents();
    const target = await createCourseVia(admin);
    const { client: tutor } = await server.instructorClient([course._id, target._id]);
    const video = await insertFinalizedVideo(server, { courseId: course._id, title: 'Iterators' });
    await admin.post('/api/admin/video/grant', { videoId: video.id, studentIds: [a.id, b.id] });
    // The instructor may not revoke them one by one.
    expect(
      (await tutor.post('/api/admin/video/revoke', { videoId: video.id, studentIds: [a.id] })).status,
    ).toBe(403);

    const edit = { videoId: video.id, title: 'Iterators', description: 'Step by step.' };
    const moved = await tutor.post('/api/admin/video/update', { ...edit, course: target._id });
    expect(moved.status).toBe(200);
    expect(moved.body.video.course._id).toBe(target._id);
    expect(await accessOf(video.id)).toEqual([a.id, b.id].sort());
    for (const student of [a, b])
      expect((await auditOf(server, student.id)).filter((e) => e.action === 'video.revoke')).toEqual([]);

    // Moved back, the course's students watch it again as before.
    expect((await tutor.post('/api/admin/video/update', { ...edit, course: course._id })).status).toBe(200);
    expect(await accessOf(video.id)).toEqual([a.id, b.id].sort());
    // Naming it into the other course from the upload form keeps them too.
    const named = await tutor.post('/api/admin/video/upload', {
      ...uploadBody(video.id, { courses: target._id }),
      title: 'Iterators',
    });
    expect(named.status).toBe(200);
    expect(await accessOf(video.id)).toEqual([a.id, b.id].sort());
  });

  it('refuses a video edit without title or description, or naming an unknown video or course', async () => {
    const video = await insertFinalizedVideo(server);
    const edit = { videoId: video.id, title: 'T', description: 'D' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ title: '' }, 400, adminMessages.videoTitle],
      [{ description: ' ' }, 400, adminMessages.videoDescription],
      [{ videoId: UNKNOWN }, 404, adminMessages.videoNotFound],
      [{ course: UNKNOWN }, 404, adminMessages.courseNotFound],
    ];
    for (const [change, status, message] of cases) {
      const res = await admin.post('/api/admin/video/update', { ...edit, ...change });
      expect([change, res.status, res.body.message]).toEqual([change, status, message]);
    }
  });

  it('grants and revokes a video for selected students, splitting the course by access, each change audited', async () => {
    const { course, a, b } = await courseWithStudents();
    const video = await insertFinalizedVideo(server, { courseId: course._id, title: 'Hooks' });
    const split = async () =>
      (await admin.post('/api/admin/students/access', { videoId: video.id, courseId: course._id })).body;

    expect(await split()).toEqual({
      studentsWithAccess: [],
      studentsWithoutAccess: [
        { _id: a.id, rollno: a.rollno, name: expect.any(String), email: a.email },
        { _id: b.id, rollno: b.rollno, name: expect.any(String), email: b.email },
      ],
    });

    const granted = await admin.post('/api/admin/video/grant', {
      videoId: video.id,
      studentIds: [a.id, b.id],
    });
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ message: adminToasts.accessGranted, granted: 2 });
    const again = await admin.post('/api/admin/video/grant', { videoId: video.id, studentIds: [a.id] });
    expect(again.body.granted).toBe(0);
    expect((await split()).studentsWithAccess.map((s: any) => s._id)).toEqual([a.id, b.id]);

    const revoked = await admin.post('/api/admin/video/revoke', { videoId: video.id, studentIds: [b.id] });
    expect(revoked.body).toEqual({ message: adminToasts.accessRevoked, revoked: 1 });
    const after = await split();
    expect(after.studentsWithAccess.map((s: any) => s._id)).toEqual([a.id]);
    expect(after.studentsWithoutAccess.map((s: any) => s._id)).toEqual([b.id]);

    const events = (await auditOf(server, b.id)).filter((e) => e.videoId === video.id);
    expect(events.map((e) => [e.action, e.actorId])).toEqual([
      ['video.grant', admin.id],
      ['video.revoke', admin.id],
    ]);
    expect((await auditOf(server, a.id)).filter((e) => e.videoId === video.id)).toHaveLength(1);
  });

  it('refuses video access changes with no students, unknown ids, an unassigned video or students outside the course', async () => {
    const { course, a, outsider } = await courseWithStudents();
    const video = await insertFinalizedVideo(server, { courseId: course._id });
    const loose = await insertFinalizedVideo(server);
    for (const path of ['/api/admin/video/grant', '/api/admin/video/revoke']) {
      for (const studentIds of [[], undefined, 'nope']) {
        const res = await admin.post(path, { videoId: video.id, studentIds });
        expect([res.status, res.body.message]).toEqual([400, validation.noStudents]);
      }
      const noVideo = await admin.post(path, { videoId: UNKNOWN, studentIds: [a.id] });
      expect([noVideo.status, noVideo.body.message]).toEqual([404, adminMessages.videoNotFound]);
      const noStudent = await admin.post(path, { videoId: video.id, studentIds: [a.id, UNKNOWN] });
      expect([noStudent.status, noStudent.body.message]).toEqual([404, adminMessages.studentNotFound]);
    }
    const unassigned = await admin.post('/api/admin/video/grant', { videoId: loose.id, studentIds: [a.id] });
    expect([unassigned.status, unassigned.body.message]).toEqual([400, adminMessages.unassignedVideo]);
    const outside = await admin.post('/api/admin/video/grant', {
      videoId: video.id,
      studentIds: [a.id, outsider.id],
    });
    expect([outside.status, outside.body.message]).toEqual([400, adminMessages.notInVideoCourse]);
    expect(await accessOf(video.id)).toEqual([]);

    const other = await createCourseVia(admin);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ videoId: UNKNOWN, courseId: course._id }, 404, adminMessages.videoNotFound],
      [{ videoId: video.id, courseId: UNKNOWN }, 404, adminMessages.courseNotFound],
      [{ videoId: video.id, courseId: other._id }, 400, adminMessages.videoNotInCourse],
    ];
    for (const [body, status, message] of cases) {
      const res = await admin.post('/api/admin/students/access', body);
      expect([res.status, res.body.message]).toEqual([status, message]);
    }
  });

  it('deletes a video with its access, recording the lost access in each student’s history', async () => {
    const { course, a } = await courseWithStudents();
    const video = await insertFinalizedVideo(server, { courseId: course._id, title: 'Doomed' });
    await admin.post('/api/admin/video/grant', { videoId: video.id, studentIds: [a.id] });

    server.clock.advance(1_000); // the history is ordered by time
    const res = await admin.post('/api/admin/delete/video', { videoId: video.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: adminToasts.videoDeleted });
    expect(await server.ctx.db.select().from(videos).where(eq(videos.id, video.id))).toEqual([]);
    expect(await accessOf(video.id)).toEqual([]);

    const history = await admin.get(`/api/admin/students/${a.id}/history`);
    expect(history.body.events[0]).toMatchObject({
      action: 'video.revoke',
      reason: 'Video deleted',
      video: { _id: null, title: 'Doomed' },
      course: { _id: course._id },
    });

    const gone = await admin.post('/api/admin/delete/video', { videoId: video.id });
    expect([gone.status, gone.body.message]).toEqual([404, adminMessages.videoNotFound]);
    const missing = await admin.post('/api/admin/delete/video', {});
    expect(missing.status).toBe(400);
  });
});
