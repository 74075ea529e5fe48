import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videos } from '../db/schema';
import { storeThumbnail } from '../thumbnails/store';
import type { TestClient } from '../../../test/support/http-client';
import { decodeHls, makeClip, MediaTestServer, uploadVideo } from '../../../test/support/media-kit';
import { createTestBucket, type TestBucket } from '../../../test/support/stores';
import { migrateMedia } from './migrate';
import { mediaKeys } from '../storage';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe.runIf(process.env.S3_ENDPOINT)('media:migrate between the local folder and a bucket', () => {
  let bucket: TestBucket;
  let media: MediaTestServer;
  let admin: TestClient;
  const lectures: { videoId: string; url: string }[] = [];

  beforeAll(async () => {
    bucket = await createTestBucket();
    // A school on the local store with a bucket configured (not yet in use).
    media = await MediaTestServer.start({ engine: 'pglite', env: { ...bucket.env, MEDIA_STORE: 'local' } });
    admin = (await media.server.adminClient()).client;
    for (const [i, clip] of [{ seconds: 3 }, { seconds: 2, width: 640, height: 400 }].entries()) {
      const { videoId, body } = await uploadVideo(admin, await makeClip(clip), `lecture-${i}.mp4`);
      expect((await media.settled(videoId)).status).toBe('ready');
      lectures.push({ videoId, url: body.url });
    }
    await media.runner.idle(); // ladders done
  }, 60_000);
  afterAll(async () => {
    await media?.close();
    await bucket?.drop();
  });

  const storeOf = async (videoId: string) =>
    (await media.server.ctx.db.select({ store: videos.store }).from(videos).where(eq(videos.id, videoId)))[0]!
      .store;

  it('copies every video to the bucket, verifies, switches, removes the old copy; resumes after an interruption', async () => {
    const { ctx } = media.server;
    const thumbnail = await storeThumbnail(ctx.media, `data:image/png;base64,${PNG.toString('base64')}`);
    const localKeys = async (videoId: string) =>
      (await ctx.media.local.list(mediaKeys.video(videoId))).map((o) => o.key);
    const before = await localKeys(lectures[1]!.videoId);
    expect(before.length).toBeGreaterThan(5);
    // Playing from the local store, so the app remembers where each video was.
    expect(
      (await decodeHls(`${media.server.url}${lectures[0]!.url}`, admin.token)).frames,
    ).toBeGreaterThanOrEqual(74);

    // Interrupted once the first video is moved (as a kill between videos would).
    const stop = new Error('interrupted');
    await expect(
      migrateMedia(ctx, 's3', (line) => {
        if (line.includes('moved')) throw stop;
      }),
    ).rejects.toBe(stop);
    expect(await storeOf(lectures[0]!.videoId)).toBe('s3');
    expect(await storeOf(lectures[1]!.videoId)).toBe('local');
    expect(await localKeys(lectures[0]!.videoId)).toEqual([]);

    const lines: string[] = [];
    const report = await migrateMedia(ctx, 's3', (line) => lines.push(line));
    expect(report).toMatchObject({ moved: 1, waiting: [], thumbnails: 1 });
    expect(lines.join('\n')).toContain(lectures[1]!.videoId);
    for (const { videoId } of lectures) {
      expect(await storeOf(videoId)).toBe('s3');
      expect(await localKeys(videoId)).toEqual([]);
    }
    const inBucket = (await bucket.store.list(mediaKeys.video(lectures[1]!.videoId))).map((o) => o.key);
    expect(inBucket.sort()).toEqual([...before].sort());
    expect(await bucket.store.head(mediaKeys.thumbnail(thumbnail))).toBeTruthy();
    // Idempotent: nothing left to do.
    expect(await migrateMedia(ctx, 's3')).toMatchObject({ moved: 0, objects: 0, thumbnails: 0 });

    // The running server plays both from the bucket (a remembered local store is looked up again).
    for (const lecture of lectures)
      expect(
        (await decodeHls(`${media.server.url}${lecture.url}`, admin.token)).frames,
      ).toBeGreaterThanOrEqual(49);
  }, 60_000);

  it('moves them back to the local folder the same way', async () => {
    const report = await migrateMedia(media.server.ctx, 'local');
    expect(report.moved).toBe(2);
    for (const lecture of lectures) {
      expect(await storeOf(lecture.videoId)).toBe('local');
      expect(await bucket.store.list(mediaKeys.video(lecture.videoId))).toEqual([]);
      expect(
        (await decodeHls(`${media.server.url}${lecture.url}`, admin.token)).frames,
      ).toBeGreaterThanOrEqual(49);
    }
  }, 60_000);
});
