import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaMessages } from '../../contract/media';
import { uploads, videos } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import type { TestClient } from '../../../test/support/http-client';
import {
  checksumOf,
  finalize,
  makeClip,
  MediaTestServer,
  sendChunk,
  sha256,
  stalledChunk,
  uploadAll,
} from '../../../test/support/media-kit';
import { mediaMatrix } from '../../../test/support/stores';
import { purgeUploadsHandler } from './upload/cleanup';

/** The server lets go of an upload once it notices the dropped connection: an empty chunk then gets through. */
async function waitUntilUnlocked(client: TestClient, fileName: string, offset: number) {
  for (let i = 0; i < 100; i++) {
    const res = await sendChunk(client, fileName, offset, Buffer.alloc(0));
    if (res.status !== 423) return expect(res.body).toEqual({ offset });
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the upload stayed locked');
}

describe.each(mediaMatrix(testEngines()))('chunked upload and finalize (%s, %s store)', (engine, store) => {
  let media: MediaTestServer;
  let clip: Buffer;
  beforeAll(async () => {
    media = await MediaTestServer.start({ engine, store });
    clip = await readFile(await makeClip({ seconds: 3 }));
  });
  afterAll(() => media?.close());

  /** Upload bytes the store holds, by storage name (files, multipart uploads, pieces). */
  const uploadFiles = () => media.storedUploads();
  const rowOf = async (label: string) =>
    (await media.server.ctx.db.select().from(uploads).where(eq(uploads.label, label)))[0];

  it('takes a video in several chunks, reports the offset, and finalizes it to a ready video', async () => {
    const { client, admin } = await media.server.adminClient();
    const chunk = Math.ceil(clip.length / 3);
    expect((await client.get('/stream/upload-status?fileName=Intro%20lecture.mp4')).body).toEqual({
      offset: 0,
    });

    const first = await sendChunk(client, 'Intro lecture.mp4', 0, clip.subarray(0, chunk));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ offset: chunk });
    expect((await client.get('/stream/upload-status?fileName=Intro%20lecture.mp4')).body).toEqual({
      offset: chunk,
    });
    expect(await uploadAll(client, 'Intro lecture.mp4', clip, chunk, chunk)).toBe(clip.length);

    const done = await finalize(client, 'Intro lecture.mp4');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      url: expect.stringMatching(/^\/stream\/videos\/[0-9a-f-]{36}\/master\.m3u8$/),
      deleteUrl: expect.stringMatching(/^\/stream\/videos\/[0-9a-f-]{36}$/),
      duration: '00:03',
    });
    const videoId = done.body.deleteUrl.split('/').at(-1);
    const [row] = await media.server.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({
      title: 'Intro lecture',
      sourceName: 'Intro lecture.mp4',
      sizeBytes: clip.length,
      createdBy: admin.id,
      courseId: null,
    });
    expect(row!.durationSeconds).toBeCloseTo(3, 0);

    const ready = await media.settled(videoId);
    expect(ready.status).toBe('ready');
    expect(ready.renditions).toEqual([180]);
    // The upload is consumed: its name is free again and nothing is left in the upload folder.
    expect((await client.get('/stream/upload-status?fileName=Intro%20lecture.mp4')).body).toEqual({
      offset: 0,
    });
    expect(await uploadFiles()).toEqual([]);
  });

  it('accepts the file part before the fields (the order SPEC.md lists them in)', async () => {
    const { client } = await media.server.adminClient();
    const res = await sendChunk(client, 'file-first.mp4', 0, clip.subarray(0, 1000), {
      fileFirst: true,
      checksum: checksumOf(clip.subarray(0, 1000)),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ offset: 1000 });
  });

  it('resumes after a chunk was cut off mid-way, and the finished file is byte-identical', async () => {
    const { client } = await media.server.adminClient();
    const half = 40_000;
    expect(await uploadAll(client, 'resume.mp4', clip.subarray(0, half), half)).toBe(half);

    const cut = stalledChunk(
      media.server.url,
      client.token!,
      'resume.mp4',
      half,
      clip.subarray(half, half + 20_000),
    );
    await new Promise((r) => setTimeout(r, 200));
    cut.abort();
    // The half-sent bytes were never acknowledged: the offset stays where it was.
    expect((await client.get('/stream/upload-status?fileName=resume.mp4')).body).toEqual({ offset: half });
    await waitUntilUnlocked(client, 'resume.mp4', half);

    expect(await uploadAll(client, 'resume.mp4', clip, 50_000, half)).toBe(clip.length);
    const done = await finalize(client, 'resume.mp4');
    expect(done.status).toBe(200);
    const videoId = done.body.deleteUrl.split('/').at(-1);
    expect(sha256((await media.objectBytes(`sources/${videoId}`))!)).toBe(sha256(clip));
  });

  it('answers 409 with the stored offset when start does not match it', async () => {
    const { client } = await media.server.adminClient();
    await uploadAll(client, 'offset.mp4', clip.subarray(0, 10_000), 10_000);
    for (const start of [5_000, 20_000]) {
      const res = await sendChunk(client, 'offset.mp4', start, clip.subarray(start, start + 1000));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: mediaMessages.wrongOffset, offset: 10_000 });
    }
    const fresh = await sendChunk(client, 'never-started.mp4', 100, clip.subarray(0, 100));
    expect(fresh.status).toBe(409);
    expect(fresh.body.offset).toBe(0);
  });

  it('discards a chunk whose checksum does not match (400, offset unchanged)', async () => {
    const { client } = await media.server.adminClient();
    await uploadAll(client, 'checksum.mp4', clip.subarray(0, 10_000), 10_000);
    const chunk = clip.subarray(10_000, 20_000);
    const res = await sendChunk(client, 'checksum.mp4', 10_000, chunk, {
      checksum: checksumOf(clip.subarray(0, 10_000)),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(mediaMessages.checksumMismatch);
    expect((await client.get('/stream/upload-status?fileName=checksum.mp4')).body).toEqual({
      offset: 10_000,
    });
    const retry = await sendChunk(client, 'checksum.mp4', 10_000, chunk, { checksum: checksumOf(chunk) });
    expect(retry.body).toEqual({ offset: 20_000 });
  });

  it('refuses file names that try to escape or smuggle control characters (400)', async () => {
    const { client } = await media.server.adminClient();
    for (const name of [
      '../../etc/passwd',
      'a/b.mp4',
      'a\\b.mp4',
      '..',
      'bad\u0007name.mp4',
      `${'x'.repeat(252)}.mp4`,
      '',
    ]) {
      const res = await sendChunk(client, name, 0, Buffer.from('abc'));
      expect(res.status, name).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
    const status = await client.get(`/stream/upload-status?fileName=${encodeURIComponent('../x.mp4')}`);
    expect(status.status).toBe(400);
    expect(await uploadFiles()).not.toContain('passwd');
  });

  it('answers 422 for a text file named .mp4 and deletes it', async () => {
    const { client } = await media.server.adminClient();
    const text = Buffer.from('This is not a video, just some notes.\n'.repeat(200));
    expect(await uploadAll(client, 'notes.mp4', text, 3000)).toBe(text.length);
    const { storageName } = (await rowOf('notes.mp4'))!;
    expect(await uploadFiles()).toContain(storageName);
    const res = await finalize(client, 'notes.mp4');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(mediaMessages.notAVideo);
    expect(await uploadFiles()).not.toContain(storageName);
    expect((await media.objects()).filter((k) => k.includes(storageName))).toEqual([]);
    expect((await client.get('/stream/upload-status?fileName=notes.mp4')).body).toEqual({ offset: 0 });
    expect((await finalize(client, 'notes.mp4')).status).toBe(404);
  });

  it('lets one writer at a time into an upload (423 for a concurrent chunk)', async () => {
    const { client } = await media.server.adminClient();
    const slow = stalledChunk(media.server.url, client.token!, 'busy.mp4', 0, clip.subarray(0, 5_000));
    await new Promise((r) => setTimeout(r, 200));
    const second = await sendChunk(client, 'busy.mp4', 0, clip.subarray(0, 5_000));
    expect(second.status).toBe(423);
    slow.abort();
  });

  it('keeps uploads per admin and closed to students and strangers', async () => {
    const a = await media.server.adminClient();
    const b = await media.server.adminClient();
    await uploadAll(a.client, 'mine.mp4', clip.subarray(0, 4_000), 4_000);
    expect((await b.client.get('/stream/upload-status?fileName=mine.mp4')).body).toEqual({ offset: 0 });
    expect((await finalize(b.client, 'mine.mp4')).status).toBe(404);
    const { client: student } = await media.server.studentClient();
    expect((await sendChunk(student, 'x.mp4', 0, Buffer.from('x'))).status).toBe(403);
    expect((await media.server.client().get('/stream/upload-status?fileName=mine.mp4')).status).toBe(401);
    expect((await finalize(media.server.client(), 'mine.mp4')).status).toBe(401);
  });

  it('removes uploads abandoned for 24 hours', async () => {
    const { client } = await media.server.adminClient();
    await uploadAll(client, 'abandoned.mp4', clip.subarray(0, 4_000), 4_000);
    const [row] = await media.server.ctx.db.select().from(uploads).where(eq(uploads.label, 'abandoned.mp4'));
    const purge = purgeUploadsHandler(media.server.ctx);
    const run = {
      jobId: 'x',
      attempt: 1,
      signal: new AbortController().signal,
      log: media.server.ctx.logger,
    };
    media.server.clock.advance(23 * 3600_000);
    await purge({}, run);
    expect((await client.get('/stream/upload-status?fileName=abandoned.mp4')).body).toEqual({
      offset: 4_000,
    });
    media.server.clock.advance(2 * 3600_000);
    await purge({}, run);
    expect(await media.server.ctx.db.select().from(uploads).where(eq(uploads.id, row!.id))).toEqual([]);
    expect(await uploadFiles()).not.toContain(row!.storageName);
  });
});

describe.each(mediaMatrix(testEngines()))('upload size cap (%s, %s store)', (engine, store) => {
  let media: MediaTestServer;
  beforeAll(async () => {
    media = await MediaTestServer.start({ engine, store, env: { MAX_UPLOAD_BYTES: '50000' } });
  });
  afterAll(() => media?.close());

  it('answers 413 once the total would pass MAX_UPLOAD_BYTES, keeping what fit', async () => {
    const { client } = await media.server.adminClient();
    const bytes = Buffer.alloc(60_000, 7);
    expect((await sendChunk(client, 'big.mp4', 0, bytes.subarray(0, 40_000))).body).toEqual({
      offset: 40_000,
    });
    const res = await sendChunk(client, 'big.mp4', 40_000, bytes.subarray(40_000));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(mediaMessages.tooLarge(50_000));
    expect((await client.get('/stream/upload-status?fileName=big.mp4')).body).toEqual({ offset: 40_000 });
  });
});
