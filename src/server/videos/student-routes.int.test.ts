import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaMessages } from '../../contract/media';
import { courses, enrollments, videoAccess, videos, type VideoStatus } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import { TestServer, type TestStudent } from '../../../test/support/test-server';

const DAY = 86_400_000;

describe.each(testEngines())('student video list and roll number (%s)', (engine) => {
  let server: TestServer;
  let courseId: string;
  beforeAll(async () => {
    server = await TestServer.start({ engine });
    const [course] = await server.ctx.db
      .insert(courses)
      .values({
        batch: 3,
        courseCode: 'JS201',
        name: 'JavaScript',
        description: 'd',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
      })
      .returning();
    courseId = course!.id;
  });
  afterAll(() => server?.close());

  async function video(
    title: string,
    position: number,
    status: VideoStatus = 'ready',
    durationSeconds = 754,
  ) {
    const [row] = await server.ctx.db
      .insert(videos)
      .values({
        title,
        description: `About ${title}`,
        courseId,
        position,
        status,
        durationSeconds,
        sourceName: `${title}.mp4`,
      })
      .returning();
    return row!;
  }

  async function enroll(student: TestStudent, options: { expiresInDays?: number; revoked?: boolean } = {}) {
    await server.ctx.db.insert(enrollments).values({
      courseId,
      studentId: student.id,
      accessExpiration: new Date(server.clock.now().getTime() + (options.expiresInDays ?? 30) * DAY),
      accessRevoked: options.revoked ?? false,
    });
  }

  it('lists the ready videos the student was granted, in course order, with the fields of SPEC.md', async () => {
    const { client, student } = await server.studentClient();
    await enroll(student);
    const second = await video('Closures', 2, 'ready', 3725);
    const first = await video('Scope', 1);
    const processing = await video('Promises', 3, 'processing');
    const notGranted = await video('Generators', 4);
    for (const v of [second, first, processing])
      await server.ctx.db.insert(videoAccess).values({ videoId: v.id, studentId: student.id });

    const res = await client.post('/api/videos', { courseId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      videos: [
        expect.objectContaining({
          _id: first.id,
          title: 'Scope',
          description: 'About Scope',
          thumbnail: `/stream/videos/${first.id}/poster.jpg`,
          url: `/stream/videos/${first.id}/master.m3u8`,
          duration: '12:34',
        }),
        expect.objectContaining({ _id: second.id, title: 'Closures', duration: '01:02:05' }),
      ],
    });
    expect(JSON.stringify(res.body)).not.toContain(notGranted.id);
  });

  it('refuses expired, revoked and missing course access (403)', async () => {
    const expired = await server.studentClient();
    await enroll(expired.student, { expiresInDays: -1 });
    const revoked = await server.studentClient();
    await enroll(revoked.student, { revoked: true });
    const stranger = await server.studentClient();
    for (const { client } of [expired, revoked, stranger]) {
      const res = await client.post('/api/videos', { courseId });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(mediaMessages.noCourseAccess);
    }
  });

  it('answers the roll number for the watermark', async () => {
    const { client, student } = await server.studentClient();
    await enroll(student);
    const res = await client.post('/api/rollno', { courseId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ rollno: student.rollno });
    const stranger = await server.studentClient();
    expect((await stranger.client.post('/api/rollno', { courseId })).status).toBe(403);
  });

  it('validates the course id and needs a student session', async () => {
    const { client } = await server.studentClient();
    for (const body of [{}, { courseId: 'abc' }, { courseId: 12 }]) {
      const res = await client.post('/api/videos', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('courseId must be a course id.');
    }
    expect((await client.post('/api/videos', { courseId: randomUUID() })).status).toBe(403);
    expect((await server.client().post('/api/videos', { courseId })).status).toBe(401);
    expect((await server.client().post('/api/rollno', { courseId })).status).toBe(401);
    const { client: admin } = await server.adminClient();
    expect((await admin.post('/api/videos', { courseId })).status).toBe(403);
  });

  it('is closed outside opening hours (503)', async () => {
    const { client, student } = await server.studentClient();
    await enroll(student);
    server.clock.set('2026-03-02T18:00:00.000Z');
    try {
      expect((await client.post('/api/videos', { courseId })).status).toBe(503);
      expect((await client.post('/api/rollno', { courseId })).status).toBe(503);
    } finally {
      server.clock.set('2026-03-02T08:00:00.000Z');
    }
  });
});
