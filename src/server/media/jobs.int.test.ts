import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../demo-seed';
import { jobs, users, videos } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import { mediaMatrix } from '../../../test/support/stores';
import { addDemoLectures } from './demo-lectures';
import { decodeHls, makeClip, MediaTestServer, uploadVideo } from '../../../test/support/media-kit';

describe.each(mediaMatrix(testEngines()))('packaging jobs (%s, %s store)', (engine, store) => {
  let media: MediaTestServer;
  beforeAll(async () => {
    media = await MediaTestServer.start({ engine, store });
  });
  afterAll(() => media?.close());

  it('makes a new upload playable while the ladders of earlier uploads are still encoding', async () => {
    const { client: admin } = await media.server.adminClient();
    const long = await makeClip({ seconds: 20, width: 1280, height: 720 });
    const first = await uploadVideo(admin, long, 'long-1.mp4');
    const second = await uploadVideo(admin, long, 'long-2.mp4');
    expect((await media.settled(first.videoId)).status).toBe('ready');
    expect((await media.settled(second.videoId)).status).toBe('ready');
    const ladders = async () =>
      (await media.server.ctx.db.select().from(jobs).where(eq(jobs.type, 'media.ladder')))
        .map((j) => j.status)
        .sort();
    // One ladder at a time (its lane), the other waits: a runner slot stays free.
    expect(await ladders()).toEqual(['queued', 'running']);

    // How soon it plays is a speed target, measured by `npm run bench -- streaming` (finalize to
    // playable), not timed here: a busy machine took 5.2 s over a 5 s bound (u1, 2026-11-30).
    const quick = await uploadVideo(admin, await makeClip({ seconds: 3 }), 'quick.mp4');
    expect((await media.settled(quick.videoId)).status).toBe('ready');
    expect(await ladders()).toContain('queued'); // the ladders were not done: the remux did not wait for them
  }, 60_000);

  it('generates, packages and grants the demo lectures to the demo student', async () => {
    const demo = await seedDemo(media.server.ctx);
    expect(
      await addDemoLectures(media.server.ctx, {
        courseId: demo.courseId,
        studentUsername: demo.student.username,
      }),
    ).toBe(2);
    const lectures = await media.server.ctx.db
      .select()
      .from(videos)
      .where(eq(videos.courseId, demo.courseId));
    expect(lectures).toHaveLength(2);
    for (const lecture of lectures) expect((await media.settled(lecture.id)).status).toBe('ready');

    await media.server.ctx.db
      .update(users)
      .set({ firstLogin: false })
      .where(eq(users.username, demo.student.username));
    const client = media.server.client();
    expect(
      (await client.post('/api/signin', { username: demo.student.username, password: demo.student.password }))
        .status,
    ).toBe(200);
    const list = await client.post('/api/videos', { courseId: demo.courseId });
    expect(list.body.videos.map((v: { title: string }) => v.title)).toEqual([
      'Sample lecture 1: Using the player',
      'Sample lecture 2: The playlist',
    ]);
    const decoded = await decodeHls(`${media.server.url}${list.body.videos[0].url}`, client.token);
    expect(decoded.seconds).toBeCloseTo(8, 0);
  });
});
