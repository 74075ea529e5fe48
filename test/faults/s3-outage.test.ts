import { readFile } from 'node:fs/promises';
import { ListMultipartUploadsCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UPLOAD_CHUNK_SIZE } from '../../src/contract/constants';
import { mediaMessages } from '../../src/contract/media';
import { jobs, uploads, videos } from '../../src/server/db/schema';
import { FaultProxy, type FaultMode } from '../support/fault-proxy';
import type { TestClient } from '../support/http-client';
import {
  checksumOf,
  decodeHls,
  finalize,
  makeClip,
  MediaTestServer,
  sendChunk,
  sha256,
  uploadAll,
  uploadVideo,
} from '../support/media-kit';
import { describeWhenReady } from '../support/preconditions';
import { createTestBucket, type TestBucket } from '../support/stores';

const missing = process.env.S3_ENDPOINT
  ? undefined
  : 'no S3 server (eval "$(../shared/tools/s3-server/start)")';

describeWhenReady('the S3 store failing under Lectern (a fault proxy before the real RGW)', missing, () => {
  let bucket: TestBucket;
  let proxy: FaultProxy;
  let media: MediaTestServer;
  let admin: TestClient;

  beforeAll(async () => {
    bucket = await createTestBucket();
    proxy = await FaultProxy.start(process.env.S3_ENDPOINT!);
    media = await MediaTestServer.start({
      engine: 'pglite',
      env: { ...bucket.env, S3_ENDPOINT: proxy.endpoint },
    });
    admin = (await media.server.adminClient()).client;
  });
  afterAll(async () => {
    await media?.close();
    await proxy?.close();
    await bucket?.drop();
  });

  const offsetOf = async (name: string) =>
    (await admin.get(`/stream/upload-status?fileName=${encodeURIComponent(name)}`)).body.offset as number;

  it('answers a chunk with 503 and a message while S3 is away, and takes the same chunk once it is back', async () => {
    const clip = await readFile(await makeClip({ seconds: 10, width: 1280, height: 720 }));
    expect(clip.length).toBeGreaterThan(UPLOAD_CHUNK_SIZE + 300_000);
    const name = 'Outage.mp4';
    const first = clip.subarray(0, UPLOAD_CHUNK_SIZE);
    expect((await sendChunk(admin, name, 0, first, { checksum: checksumOf(first) })).body).toEqual({
      offset: UPLOAD_CHUNK_SIZE,
    });

    const second = clip.subarray(UPLOAD_CHUNK_SIZE, UPLOAD_CHUNK_SIZE + 200_000);
    const faults: [FaultMode, { size?: false }][] = [
      ['503', {}], // RGW answering 5xx
      ['refuse', {}], // unreachable
      ['cut', {}], // the link drops mid-part
      ['503', { size: false }], // a spec client's chunk, kept aside first
    ];
    proxy.cutAfterBytes = 64 * 1024;
    for (const [mode, options] of faults) {
      proxy.set(mode);
      const before = proxy.faults;
      const res = await sendChunk(admin, name, UPLOAD_CHUNK_SIZE, second, {
        checksum: checksumOf(second),
        ...options,
      });
      expect({ mode, status: res.status, body: res.body }).toEqual({
        mode,
        status: 503,
        body: { message: mediaMessages.storageUnavailable },
      });
      expect(proxy.faults).toBeGreaterThan(before);
      proxy.set('pass');
      // Nothing was counted: the offset is what the bucket acknowledged before the fault.
      expect(await offsetOf(name)).toBe(UPLOAD_CHUNK_SIZE);
    }

    // Back: the same chunk goes through, then the rest; nothing lost or doubled.
    expect(await uploadAll(admin, name, clip, UPLOAD_CHUNK_SIZE, UPLOAD_CHUNK_SIZE)).toBe(clip.length);
    const [row] = await media.server.ctx.db.select().from(uploads).where(eq(uploads.label, name));
    const { Uploads } = await bucket.client.send(new ListMultipartUploadsCommand({ Bucket: bucket.name }));
    const listed = Uploads!.find((u) => u.UploadId === row!.multipartId)!;
    const { Parts } = await bucket.client.send(
      new ListPartsCommand({ Bucket: bucket.name, Key: listed.Key, UploadId: listed.UploadId }),
    );
    // The bucket's parts agree with the row (a piece still waits for finalize as the last part).
    expect(Parts!.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual(
      row!.parts.map((p) => [p.number, p.size, p.etag]),
    );
    expect(row!.parts.reduce((s, p) => s + p.size, 0) + row!.pieces.reduce((s, p) => s + p.size, 0)).toBe(
      clip.length,
    );

    const done = await finalize(admin, name);
    expect(done.status).toBe(200);
    const videoId: string = done.body.url.split('/')[3];
    expect(sha256((await media.objectBytes(`sources/${videoId}`))!)).toBe(sha256(clip));
    expect((await media.settled(videoId)).status).toBe('ready');
  }, 60_000);

  it('defers packaging while S3 is down (the video stays processing), and finishes it once S3 is back', async () => {
    const clip = await readFile(await makeClip({ seconds: 3 }));
    await media.runner.stop();
    await uploadAll(admin, 'Packaged later.mp4', clip, clip.length);
    const done = await finalize(admin, 'Packaged later.mp4');
    expect(done.status).toBe(200);
    const videoId: string = done.body.url.split('/')[3];
    const db = media.server.ctx.db;
    const jobOf = async () =>
      (await db.select().from(jobs).where(eq(jobs.type, 'media.package'))).find(
        (j) => (j.payload as { videoId: string }).videoId === videoId,
      )!;

    proxy.set('refuse');
    await media.runner.start();
    for (let round = 1; round <= 3; round++) {
      await media.runner.idle();
      const job = await jobOf();
      // Retried with a growing backoff, never using up an attempt: an outage does not fail the video.
      expect(job).toMatchObject({ status: 'queued', attempts: 0, deferrals: round });
      expect(job.runAt.getTime() - media.server.clock.now().getTime()).toBe(5_000 * 2 ** (round - 1));
      expect((await db.select().from(videos).where(eq(videos.id, videoId)))[0]!.status).toBe('processing');
      expect((await admin.get(done.body.url)).status).toBe(409);
      media.server.clock.advance(5_000 * 2 ** (round - 1));
      media.runner.wake();
    }
    proxy.set('pass');
    await media.runner.idle();
    expect((await media.settled(videoId)).status).toBe('ready');
    expect((await jobOf()).status).toBe('done');
    const decoded = await decodeHls(`${media.server.url}${done.body.url}`, admin.token);
    expect(decoded.frames).toBeGreaterThanOrEqual(74);
  }, 60_000);

  it('queues a delete the store cannot take, and removes every object once it is back', async () => {
    const { videoId, body } = await uploadVideo(admin, await makeClip({ seconds: 2 }), 'Deleted later.mp4');
    expect((await media.settled(videoId)).status).toBe('ready');
    await media.runner.idle();
    const objects = () => bucket.store.list(`videos/${videoId}/`);
    expect((await objects()).length).toBeGreaterThan(3);

    proxy.set('503');
    const res = await admin.request('DELETE', body.deleteUrl);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: mediaMessages.deleteQueued });
    // Unplayable at once, though the objects are still there.
    expect((await admin.get(body.url)).status).toBe(409);
    await media.runner.idle();
    expect((await objects()).length).toBeGreaterThan(3);

    proxy.set('pass');
    media.server.clock.advance(60_000);
    media.runner.wake();
    await media.runner.idle();
    expect(await objects()).toEqual([]);
    expect(await bucket.store.head(`sources/${videoId}`)).toBeUndefined();
  }, 60_000);
});
