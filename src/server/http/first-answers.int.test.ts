import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_ANSWERS_ELEMENT_ID, firstAnswerKey, type FirstAnswers } from '../../contract/first-answers';
import { courses, enrollments, users, videoAccess, videos } from '../db/schema';
import { TestServer, type TestStudent } from '../../../test/support/test-server';
import type { TestClient } from '../../../test/support/http-client';
import { eq } from 'drizzle-orm';

// What a student page's index.html carries for the session that opened it. The answers come from
// the routes themselves (in-process), so the database engine changes nothing here: PGlite only.

const DAY = 86_400_000;
const INDEX =
  '<!doctype html><html><head><title>Lectern</title></head><body><div id="root"></div></body></html>';

/** The page's HTML, its answers (parsed back as the web app reads them) and its headers. */
async function openPage(client: TestClient, url: string) {
  const res = await client.request<string>('GET', url);
  const html = String(res.body);
  const block = new RegExp(
    `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">([^<]*)</script>`,
  ).exec(html);
  const answers = block ? (JSON.parse(block[1]!) as FirstAnswers) : undefined;
  const bodyOf = (method: string, url: string, body?: object) =>
    answers?.[firstAnswerKey(method, url, body && JSON.stringify(body))];
  return { res, html, answers, bodyOf };
}

describe('first answers in a student page', () => {
  let server: TestServer;
  let webRoot: string;
  let courseId: string;
  let otherCourseId: string;
  let student: TestStudent;
  let client: TestClient;
  let firstVideo: string;
  let secondVideo: string;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'lectern-first-answers-'));
    await writeFile(path.join(webRoot, 'index.html'), INDEX);
    server = await TestServer.start({ engine: 'pglite', app: { webRoot } });
    const course = (name: string) =>
      server.ctx.db
        .insert(courses)
        .values({
          batch: 3,
          courseCode: name.slice(0, 6).toUpperCase(),
          name,
          description: 'd',
          startDate: '2026-01-01',
          endDate: '2026-12-31',
        })
        .returning();
    courseId = (await course('JavaScript </script><script>alert(1)</script>'))[0]!.id;
    otherCourseId = (await course('Databases'))[0]!.id;
    ({ client, student } = await server.studentClient());
    await server.ctx.db.insert(enrollments).values({
      courseId,
      studentId: student.id,
      accessExpiration: new Date(server.clock.now().getTime() + 30 * DAY),
    });
    const rows = await server.ctx.db
      .insert(videos)
      .values(
        ['Scope', 'Closures'].map((title, i) => ({
          title,
          description: `About ${title}`,
          courseId,
          position: i + 1,
          status: 'ready' as const,
          durationSeconds: 600,
          sourceName: `${title}.mp4`,
        })),
      )
      .returning();
    [firstVideo, secondVideo] = rows.map((r) => r.id) as [string, string];
    for (const row of rows)
      await server.ctx.db.insert(videoAccess).values({ videoId: row.id, studentId: student.id });
  });
  afterAll(async () => {
    await server?.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  it('gives the dashboard the answers its own calls would get, for this student only', async () => {
    const page = await openPage(client, '/dashboard');
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get('cache-control')).toBe('private, no-store');
    expect(page.bodyOf('GET', '/api/time')).toEqual((await client.get('/api/time')).body);
    expect(page.bodyOf('GET', '/api/auth/check')).toEqual({
      valid: true,
      role: 'student',
      firstlogin: false,
    });
    const courseList = (await client.get('/api/courses')).body;
    expect(courseList.courses.map((c: { courseId: string }) => c.courseId)).toEqual([courseId]);
    expect(page.bodyOf('GET', '/api/courses')).toEqual(courseList);

    // A classmate enrolled nowhere gets their own (empty) list, never this student's.
    const { client: classmate } = await server.studentClient();
    const theirs = await openPage(classmate, '/dashboard');
    expect(theirs.bodyOf('GET', '/api/courses')).toEqual({ courses: [] });
    expect(theirs.html).not.toContain(courseId);
  });

  it('gives the course page its videos, roll number and courses, and preloads the poster it opens on', async () => {
    const page = await openPage(client, `/course/${courseId}`);
    const videosAnswer = (await client.post('/api/videos', { courseId })).body;
    expect(page.bodyOf('POST', '/api/videos', { courseId })).toEqual(videosAnswer);
    expect(page.bodyOf('POST', '/api/rollno', { courseId })).toEqual({ rollno: student.rollno });
    expect(page.bodyOf('GET', '/api/courses')).toEqual((await client.get('/api/courses')).body);
    const thumbnailOf = (id: string) =>
      videosAnswer.videos.find((v: { _id: string }) => v._id === id).thumbnail as string;
    expect(thumbnailOf(firstVideo)).toMatch(/^\//);
    const preload = (href: string) => `<link rel="preload" as="image" fetchpriority="high" href="${href}">`;
    expect(page.html).toContain(preload(thumbnailOf(firstVideo)));
    const second = await openPage(client, `/course/${courseId}?video=${secondVideo}`);
    expect(second.html).toContain(preload(thumbnailOf(secondVideo)));
    expect(second.html).not.toContain(preload(thumbnailOf(firstVideo)));
  });

  it('keeps text from the database inside the data block: a course name cannot close it', async () => {
    const page = await openPage(client, '/dashboard');
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html.match(/<\/script>/g)).toHaveLength(1);
    const listed = page.bodyOf('GET', '/api/courses') as { courses: { name: string }[] };
    expect(listed.courses[0]!.name).toBe('JavaScript </script><script>alert(1)</script>');
  });

  it('carries no answer a refused call would get: a course without access, or a malformed course id', async () => {
    const page = await openPage(client, `/course/${otherCourseId}`);
    expect((await client.post('/api/videos', { courseId: otherCourseId })).status).toBe(403);
    expect(page.bodyOf('POST', '/api/videos', { courseId: otherCourseId })).toBeUndefined();
    expect(page.bodyOf('POST', '/api/rollno', { courseId: otherCourseId })).toBeUndefined();
    expect(page.html).not.toContain('rel="preload" as="image"');
    expect(page.bodyOf('GET', '/api/courses')).toBeDefined();

    const malformed = await openPage(client, '/course/not-a-course');
    expect(malformed.res.status).toBe(200);
    expect(Object.keys(malformed.answers!).sort()).toEqual([
      'GET /api/auth/check',
      'GET /api/courses',
      'GET /api/time',
    ]);
  });

  it('gives a visitor, a first-login student and an admin only the opening hours and the session check', async () => {
    const visitor = await openPage(server.client(), '/dashboard');
    expect(Object.keys(visitor.answers!).sort()).toEqual(['GET /api/auth/check', 'GET /api/time']);
    expect(visitor.bodyOf('GET', '/api/auth/check')).toEqual({ valid: false });

    const newcomer = await server.createStudent();
    await server.ctx.db.insert(enrollments).values({
      courseId,
      studentId: newcomer.id,
      accessExpiration: new Date(server.clock.now().getTime() + 30 * DAY),
    });
    const firstLogin = server.client();
    expect((await firstLogin.signIn(newcomer)).status).toBe(200);
    const reset = await openPage(firstLogin, `/course/${courseId}`);
    expect(reset.bodyOf('GET', '/api/auth/check')).toMatchObject({ valid: true, firstlogin: true });
    expect(Object.keys(reset.answers!).sort()).toEqual(['GET /api/auth/check', 'GET /api/time']);

    const { client: admin } = await server.adminClient();
    const adminPage = await openPage(admin, `/course/${courseId}`);
    expect(Object.keys(adminPage.answers!).sort()).toEqual(['GET /api/auth/check', 'GET /api/time']);
    await server.ctx.db.update(users).set({ firstLogin: false }).where(eq(users.id, newcomer.id));
  });

  it('outside opening hours carries the hours, not the closed student calls', async () => {
    server.clock.set('2026-03-02T20:00:00.000Z'); // 01:30 in Asia/Kolkata
    try {
      const page = await openPage(client, '/dashboard');
      expect(page.bodyOf('GET', '/api/time')).toMatchObject({ open: false });
      expect(page.bodyOf('GET', '/api/courses')).toBeUndefined();
    } finally {
      server.clock.set('2026-03-02T08:00:00.000Z');
    }
  });

  it('leaves other pages as they are: no answers, and a cache may keep them', async () => {
    const page = await openPage(client, '/adminstudents');
    expect(page.answers).toBeUndefined();
    expect(page.res.headers.get('cache-control')).toBe('no-cache');
    const head = await client.request('HEAD', '/dashboard');
    expect(head.status).toBe(200);
  });
});
