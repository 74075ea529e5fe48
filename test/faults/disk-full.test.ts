import { open, readdir, readFile, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
import { mountSmallDisk, type SmallDisk } from '../support/small-disk';

const CHUNK = 256 * 1024;

const disk = await mountSmallDisk(24 * 1024 * 1024);
describeWhenReady('the disk filling up during an upload', 'skip' in disk ? disk.skip : undefined, () => {
  const small = disk as SmallDisk;
  let media: MediaTestServer;
  let admin: TestClient;

  beforeAll(async () => {
    // DATA_DIR (media, uploads) on the small disk; the database elsewhere, as on a real server.
    media = await MediaTestServer.start({ engine: 'pglite', env: { DATA_DIR: small.dir } });
    admin = (await media.server.adminClient()).client;
  }, 60_000);

  afterAll(async () => {
    try {
      // A hung connection must not keep the disk mounted: give closing a bounded time.
      await Promise.race([media?.close(), new Promise((r) => setTimeout(r, 10_000))]);
    } finally {
      await small.unmount();
    }
  });

  const uploadsDir = () => path.join(small.dir, 'media', 'uploads');
  const offsetOf = async (name: string) =>
    (await admin.get(`/stream/upload-status?fileName=${encodeURIComponent(name)}`)).body.offset as number;
  const storedBytes = async () => {
    const files = (await readdir(uploadsDir())).filter((f) => !f.startsWith('.'));
    return Object.fromEntries(
      await Promise.all(files.map(async (f) => [f, (await stat(path.join(uploadsDir(), f))).size] as const)),
    );
  };

  it('fails the chunk with 507, loses nothing, and resumes once space is freed', async () => {
    // Already there before the disk fills: a packaged video and another admin's half-done upload.
    const ready = await uploadVideo(admin, await makeClip({ seconds: 3 }), 'Already ready.mp4');
    expect((await media.settled(ready.videoId)).status).toBe('ready');
    const other = (await media.server.adminClient()).client;
    const otherClip = await readFile(await makeClip({ seconds: 4 }));
    await uploadAll(other, 'Other upload.mp4', otherClip.subarray(0, CHUNK), CHUNK);

    const clip = await readFile(await makeClip({ seconds: 8, width: 1280, height: 720 }));
    expect(clip.length).toBeGreaterThan(2 * CHUNK + 5 * 1024 * 1024);
    expect(await uploadAll(admin, 'Lecture 9.mp4', clip.subarray(0, 2 * CHUNK), CHUNK)).toBe(2 * CHUNK);
    const before = await storedBytes();

    // Less room than one chunk: the write gets part of the way, then the disk is full.
    await small.fill(100 * 1024);
    const freeBefore = await small.free();
    expect(freeBefore).toBeLessThan(CHUNK);
    const third = clip.subarray(2 * CHUNK, 3 * CHUNK);
    const attempts = {
      // Ends on a short write: the disk took part of the chunk's last write.
      'small chunk': () =>
        sendChunk(admin, 'Lecture 9.mp4', 2 * CHUNK, third, { checksum: checksumOf(third) }),
      // Fails mid-stream (writes go out per 1 MiB), as the web client's 5 MiB chunks would.
      '5 MiB chunk': () =>
        sendChunk(admin, 'Lecture 9.mp4', 2 * CHUNK, clip.subarray(2 * CHUNK, 2 * CHUNK + 5 * 1024 * 1024)),
      // The file part sent before its fields is kept aside first: that path cleans up too.
      'file before fields': () => sendChunk(admin, 'Lecture 9.mp4', 2 * CHUNK, third, { fileFirst: true }),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const started = performance.now();
      const res = await attempt();
      expect({ name, status: res.status, body: res.body }).toEqual({
        name,
        status: 507,
        body: { message: expect.stringMatching(/storage/i) },
      });
      expect(performance.now() - started).toBeLessThan(5_000);
      // The connection is still good for the next request, and the upload stands where it stood.
      expect({ name, offset: await offsetOf('Lecture 9.mp4') }).toEqual({ name, offset: 2 * CHUNK });
    }

    // Nothing else lost: offsets, bytes on disk (the partial chunk cut off, its space given back),
    // the other upload, the packaged video, and the rest of the app.
    expect(await offsetOf('Lecture 9.mp4')).toBe(2 * CHUNK);
    expect((await other.get('/stream/upload-status?fileName=Other%20upload.mp4')).body.offset).toBe(CHUNK);
    expect(await storedBytes()).toEqual(before);
    expect((await readdir(uploadsDir())).filter((f) => f.startsWith('.spool-'))).toEqual([]);
    expect(await small.free()).toBeGreaterThanOrEqual(freeBefore);
    expect((await admin.get('/api/admin/course/dashboard')).status).toBe(200);
    expect((await decodeHls(`${admin.baseUrl}${ready.body.url}`, admin.token)).frames).toBeGreaterThanOrEqual(
      74,
    );

    // Space freed: the upload resumes from the reported offset and the video is whole.
    await small.release();
    const resumed = await offsetOf('Lecture 9.mp4');
    expect(await uploadAll(admin, 'Lecture 9.mp4', clip, CHUNK, resumed)).toBe(clip.length);
    const [stored] = Object.keys(before).filter((f) => before[f] === 2 * CHUNK);
    expect(sha256(await readFile(path.join(uploadsDir(), stored!)))).toBe(sha256(clip));
    const done = await finalize(admin, 'Lecture 9.mp4');
    expect(done.status).toBe(200);
    expect(done.body.duration).toBe('00:08');
    const videoId = done.body.url.split('/')[3];
    expect((await media.settled(videoId)).status).toBe('ready');
    expect((await decodeHls(`${admin.baseUrl}${done.body.url}`, admin.token)).frames).toBeGreaterThanOrEqual(
      199,
    );
    expect(await uploadAll(other, 'Other upload.mp4', otherClip, CHUNK, CHUNK)).toBe(otherClip.length);
  }, 60_000);
});

describe('a write-back error reported to an early flush', () => {
  let media: MediaTestServer;
  afterAll(() => media?.close());

  it('still fails the chunk: the offset never counts bytes the disk did not keep', async () => {
    media = await MediaTestServer.start({ engine: 'pglite' });
    const { client } = await media.server.adminClient();
    const bytes = (await readFile(await makeClip({ seconds: 8, width: 1280, height: 720 }))).subarray(
      0,
      3 * 1024 * 1024,
    );
    // Linux hands a write-back error (EIO, or ENOSPC on thin storage) to one fsync only: here the
    // one started early, while the chunk was still arriving; the acknowledging one then succeeds.
    const probe = await open(await makeClip({ seconds: 3 }), 'r');
    const fileHandle = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const datasync = vi
      .spyOn(fileHandle, 'datasync')
      .mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    try {
      const res = await sendChunk(client, 'Writeback.mp4', 0, bytes, { checksum: checksumOf(bytes) });
      expect(datasync).toHaveBeenCalled();
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.body).toEqual({ message: expect.any(String) });
    } finally {
      datasync.mockRestore();
    }
    expect((await client.get('/stream/upload-status?fileName=Writeback.mp4')).body).toEqual({ offset: 0 });
    expect(await uploadAll(client, 'Writeback.mp4', bytes, bytes.length)).toBe(bytes.length);
  }, 30_000);
});
