import { describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import { mediaMessages } from '../../contract/media';
import { enrollments, videoAccess, videos } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import { watchedCourse } from '../../../test/support/watch-fixtures';
import type { TestClient } from '../../../test/support/http-client';
import { OPEN_TIME, suiteServer, type TestStudent } from '../../../test/support/test-server';

const DAY = 86_400_000;

describe.each(testEngines())('video progress (%s)', (engine) => {
  const server = suiteServer({ engine });

  /** A course with `count` ready videos of 100 s, the student enrolled (until `expires`) and granted each. */
  const courseWithVideos = (student: TestStudent, count = 2, expires?: Date) =>
    watchedCourse(server, [student], Array<number>(count).fill(100), expires);

  async function signedIn(): Promise<{ client: TestClient; student: TestStudent }> {
    server.clock.set(OPEN_TIME);
    return server.studentClient();
  }

  const save = (client: TestClient, videoId: string, position: number, watched: number) =>
    client.post('/api/progress', { videoId, position, watched });
  /** The progress the server answers a save with. */
  const progressAfter = async (client: TestClient, videoId: string, position: number, watched: number) =>
    (await save(client, videoId, position, watched)).body.progress;

  it('refuses anyone but a signed-in student with a full session', async () => {
    const { student } = await signedIn();
    const { videoIds } = await courseWithVideos(student);
    const anonymous = await save(server.client(), videoIds[0]!, 1, 1);
    expect(anonymous.status).toBe(401);
    const { client: admin } = await server.adminClient();
    const asAdmin = await save(admin, videoIds[0]!, 1, 1);
    expect([asAdmin.status, asAdmin.body.message]).toEqual([403, serverMessages.studentsOnly]);
  });

  it('checks the body and answers 404 for an unknown video', async () => {
    const { client } = await signedIn();
    expect((await client.post('/api/progress', { videoId: 'nope', position: 1, watched: 1 })).status).toBe(
      400,
    );
    const negative = await client.post('/api/progress', {
      videoId: crypto.randomUUID(),
      position: -1,
      watched: 1,
    });
    expect([negative.status, negative.body.message]).toEqual([400, 'position must be a number of seconds.']);
    const unknown = await save(client, crypto.randomUUID(), 1, 1);
    expect([unknown.status, unknown.body.message]).toEqual([404, mediaMessages.videoNotFound]);
  });

  it('only accepts videos the student may watch now', async () => {
    const { client, student } = await signedIn();
    const other = await server.createActiveStudent();
    const theirs = await courseWithVideos(other);
    const notEnrolled = await save(client, theirs.videoIds[0]!, 1, 1);
    expect([notEnrolled.status, notEnrolled.body.message]).toEqual([403, mediaMessages.noCourseAccess]);

    const mine = await courseWithVideos(student);
    const [ungranted] = await server.ctx.db
      .insert(videos)
      .values({
        title: 'Not granted',
        sourceName: 'x.mp4',
        courseId: mine.courseId,
        status: 'ready',
        durationSeconds: 100,
      })
      .returning();
    const noGrant = await save(client, ungranted!.id, 1, 1);
    expect([noGrant.status, noGrant.body.message]).toEqual([403, mediaMessages.noVideoAccess]);

    const expiring = await courseWithVideos(student, 1, new Date(Date.parse(OPEN_TIME) + 60_000));
    expect((await save(client, expiring.videoIds[0]!, 1, 1)).status).toBe(200);
    server.clock.advance(120_000);
    const expired = await save(client, expiring.videoIds[0]!, 2, 2);
    expect([expired.status, expired.body.message]).toEqual([403, mediaMessages.noCourseAccess]);
  });

  it("writes only the signed-in student's own progress", async () => {
    const { client, student } = await signedIn();
    const { courseId, videoIds } = await courseWithVideos(student);
    const { client: classmate, student: mate } = await signedIn();
    await server.ctx.db.insert(enrollments).values({
      courseId,
      studentId: mate.id,
      accessExpiration: new Date(Date.parse(OPEN_TIME) + DAY),
    });
    await server.ctx.db.insert(videoAccess).values({ videoId: videoIds[0]!, studentId: mate.id });

    // A studentId in the body is not part of the contract: the session decides whose row it is.
    await client.post('/api/progress', {
      videoId: videoIds[0],
      position: 42,
      watched: 20,
      studentId: mate.id,
    });
    const mine = await client.post('/api/videos', { courseId });
    const theirs = await classmate.post('/api/videos', { courseId });
    expect(mine.body.videos[0].progress).toEqual({ position: 42, watched: 20, completed: false });
    expect(theirs.body.videos[0].progress).toEqual({ position: 0, watched: 0, completed: false });
  });

  it('does not complete a video the student only seeked through', async () => {
    const { client, student } = await signedIn();
    const { videoIds } = await courseWithVideos(student);
    await save(client, videoIds[0]!, 5, 5);
    server.clock.advance(10_000);
    const seeked = await save(client, videoIds[0]!, 99, 15);
    expect(seeked.body.progress).toEqual({ position: 99, watched: 15, completed: false });
  });

  it('completes a video once 90% of it has been watched, and keeps it completed', async () => {
    const { client, student } = await signedIn();
    const { videoIds } = await courseWithVideos(student);
    const id = videoIds[0]!;
    expect((await progressAfter(client, id, 20, 20)).completed).toBe(false);
    server.clock.advance(35_000); // 35 s of wall time allow up to 70 s more at the fastest speed
    expect(await progressAfter(client, id, 89, 89)).toEqual({ position: 89, watched: 89, completed: false });
    server.clock.advance(10_000);
    expect(await progressAfter(client, id, 90, 90)).toEqual({ position: 90, watched: 90, completed: true });
    // Rewatching from the start neither shrinks the watched time nor undoes the completion.
    server.clock.advance(10_000);
    expect(await progressAfter(client, id, 3, 3)).toEqual({ position: 3, watched: 90, completed: true });
  });

  it('never counts more than the video length nor faster than the fastest playback speed', async () => {
    const { client, student } = await signedIn();
    const { videoIds } = await courseWithVideos(student);
    const id = videoIds[0]!;
    // A first save cannot claim the whole video.
    expect(await progressAfter(client, id, 100, 100)).toEqual({
      position: 100,
      watched: 30,
      completed: false,
    });
    server.clock.advance(10_000);
    expect((await progressAfter(client, id, 100, 100)).watched).toBe(50);
    server.clock.advance(3_600_000);
    expect(await progressAfter(client, id, 500, 500)).toEqual({
      position: 100,
      watched: 100,
      completed: true,
    });
  });

  it('reports completed / total and the Continue target on the course list', async () => {
    const { client, student } = await signedIn();
    const { courseId, videoIds } = await courseWithVideos(student, 3);
    /** The course's progress as the student's course list shows it. */
    const listed = async () =>
      (await client.get('/api/courses')).body.courses.find(
        (c: { courseId: string }) => c.courseId === courseId,
      ).progress;
    /** What the list should show: `completed` of the 3 videos, `watched` seconds of their 300. */
    const expected = (completed: number, nextVideoId: string | undefined, watched: number) => ({
      total: 3,
      completed,
      nextVideoId,
      watchedShare: watched / 300,
    });
    expect(await listed()).toEqual(expected(0, videoIds[0], 0));

    await save(client, videoIds[0]!, 30, 30);
    server.clock.advance(60_000);
    await save(client, videoIds[0]!, 95, 95);
    expect(await listed()).toEqual(expected(1, videoIds[1], 95));

    // Jumping to the third video makes it the one to continue while unfinished.
    server.clock.advance(10_000);
    await save(client, videoIds[2]!, 10, 10);
    expect(await listed()).toEqual(expected(1, videoIds[2], 105));
  });
});
