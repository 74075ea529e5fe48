import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { courses, enrollments, videoAccess, videos } from '../../src/server/db/schema';
import { jobHandlers, jobLanes } from '../../src/server/wiring/job-registry';
import { JobRunner } from '../../src/server/jobs/runner';
import type { TestClient } from './http-client';
import { makeLectureClip } from './lecture-clip';
import { readText, type MediaStore } from '../../src/server/storage';
import { createTestBucket, type StoreName, type TestBucket } from './stores';
import { later, TestServer, type TestServerOptions } from './test-server';

const run = promisify(execFile);
const DAY = 86_400_000;

export interface ClipOptions {
  seconds: number;
  width?: number;
  height?: number;
  /** h264 (remuxed) or mpeg4 (transcoded). */
  codec?: 'h264' | 'mpeg4';
  audio?: boolean;
  format?: 'mp4' | 'matroska';
}

const clips = new Map<string, Promise<string>>();

/** A small test-pattern clip made by ffmpeg (lavfi) once per process and option set. */
export function makeClip(options: ClipOptions): Promise<string> {
  const o = {
    width: 320,
    height: 180,
    codec: 'h264',
    audio: true,
    format: 'mp4',
    ...options,
  } as Required<ClipOptions>;
  const key = JSON.stringify(o);
  let clip = clips.get(key);
  if (!clip) {
    clip = (async () => {
      const dir = path.join(tmpdir(), 'lectern-test-clips');
      await mkdir(dir, { recursive: true });
      const file = path.join(
        dir,
        `${createHash('sha1').update(key).digest('hex').slice(0, 12)}.${o.format === 'mp4' ? 'mp4' : 'mkv'}`,
      );
      if (await exists(file)) return file;
      const temp = `${file}.${process.pid}.tmp`;
      const video =
        o.codec === 'h264'
          ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25']
          : ['-c:v', 'mpeg4', '-q:v', '5'];
      await run('ffmpeg', [
        '-v', 'error', '-y',
        '-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=25:duration=${o.seconds}`,
        ...(o.audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${o.seconds}`] : []),
        ...video,
        ...(o.audio ? ['-c:a', 'aac', '-b:a', '64k', '-shortest'] : []),
        '-f', o.format, temp,
      ]); // prettier-ignore
      await rename(temp, file); // parallel test files may race to make the same clip: the rename is atomic
      return file;
    })();
    clips.set(key, clip);
  }
  return clip;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
export const checksumOf = (bytes: Buffer) => `sha256=${createHash('sha256').update(bytes).digest('base64')}`;

/** A TestServer with a job runner woken by the app, as main.ts wires them, on the local store or a fresh bucket. */
export class MediaTestServer {
  private constructor(
    readonly server: TestServer,
    readonly runner: JobRunner,
    readonly bucket: TestBucket | undefined,
  ) {}

  static async start(options: TestServerOptions & { store?: StoreName }): Promise<MediaTestServer> {
    const bucket = options.store === 's3' ? await createTestBucket() : undefined;
    try {
      const late: { runner?: JobRunner } = {};
      const server = await TestServer.start({
        ...options,
        env: { OPEN_HOURS: '10-22', ...bucket?.env, ...options.env },
        app: { ...options.app, wakeJobs: () => late.runner?.wake() },
      });
      const runner = new JobRunner(server.ctx, jobHandlers(server.ctx), {
        pollMs: 100,
        ...jobLanes,
      });
      late.runner = runner;
      await runner.start();
      return new MediaTestServer(server, runner, bucket);
    } catch (error) {
      await bucket?.drop();
      throw error;
    }
  }

  get mediaDir(): string {
    return path.join(this.server.dataDir, 'media');
  }

  /** The store new media goes to (the one under test). */
  get store(): MediaStore {
    return this.server.ctx.media.current;
  }

  async close(): Promise<void> {
    await this.runner.stop();
    await this.server.close();
    await this.bucket?.drop();
  }

  /** Keys of every object of the store under test below `prefix` (the local store: files under media/). */
  async objects(prefix = ''): Promise<string[]> {
    return (await this.store.list(prefix)).map((o) => o.key).filter((k) => !k.startsWith('staging/'));
  }

  /** An object's bytes, or undefined. */
  async objectBytes(key: string): Promise<Buffer | undefined> {
    const read = await this.store.read(key);
    if (!read) return undefined;
    const pieces: Buffer[] = [];
    for await (const piece of read.body ?? []) pieces.push(piece as Buffer);
    return Buffer.concat(pieces);
  }

  objectText(key: string): Promise<string | undefined> {
    return readText(this.store, key);
  }

  /** Storage names of uploads the store still holds bytes for (files, or multipart uploads and pieces). */
  async storedUploads(): Promise<string[]> {
    return (await this.store.uploads.listStarted(new Date(Date.now() + 3600_000))).map((u) => u.storageName);
  }

  /** Waits until the video leaves `processing` and returns its row. */
  async settled(videoId: string, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await this.server.ctx.db.select().from(videos).where(eq(videos.id, videoId));
      if (row && row.status !== 'processing') return row;
      if (Date.now() > deadline) throw new Error(`video ${videoId} still processing after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Uploads a generated clip as `admin` and waits until it is packaged (`ready`); the upload's answer. */
  async uploadReady(admin: TestClient, clip: ClipOptions, fileName: string) {
    const uploaded = await uploadVideo(admin, await makeClip(clip), fileName);
    expect((await this.settled(uploaded.videoId)).status).toBe('ready');
    return uploaded;
  }

  /** Uploads a small lecture-like clip (320x180, `seconds` long, made in `dir`) and waits until it plays. */
  async uploadLectureReady(admin: TestClient, dir: string, seconds: number) {
    const clip = await makeLectureClip(path.join(dir, 'lecture.mp4'), { seconds, width: 320, height: 180 });
    const uploaded = await uploadVideo(admin, clip, 'lecture.mp4');
    expect((await this.settled(uploaded.videoId)).status).toBe('ready');
    return uploaded;
  }

  /** A course the student is enrolled in (active unless told otherwise) holding `videoId`, granted to them. */
  async giveAccess(
    studentId: string,
    videoId: string,
    options: { courseId?: string; expiresInDays?: number; revoked?: boolean; grantVideo?: boolean } = {},
  ): Promise<string> {
    const db = this.server.ctx.db;
    const now = this.server.clock.now();
    let courseId = options.courseId;
    if (!courseId) {
      const [course] = await db
        .insert(courses)
        .values({
          batch: 1,
          courseCode: `C${Math.random().toString(36).slice(2, 8)}`,
          name: 'Streaming 101',
          description: 'A course',
          startDate: '2026-01-01',
          endDate: '2026-12-31',
        })
        .returning({ id: courses.id });
      courseId = course!.id;
    }
    await db.update(videos).set({ courseId }).where(eq(videos.id, videoId));
    await db
      .insert(enrollments)
      .values({
        courseId,
        studentId,
        accessExpiration: new Date(now.getTime() + (options.expiresInDays ?? 30) * DAY),
        accessRevoked: options.revoked ?? false,
      })
      .onConflictDoNothing();
    if (options.grantVideo !== false)
      await db.insert(videoAccess).values({ videoId, studentId }).onConflictDoNothing();
    return courseId;
  }

  async revokeCourse(studentId: string, courseId: string): Promise<void> {
    await this.server.ctx.db
      .update(enrollments)
      .set({ accessRevoked: true, accessRevokedReason: 'test' })
      .where(and(eq(enrollments.studentId, studentId), eq(enrollments.courseId, courseId)));
  }

  /** Every object of the store under test (the local store: files under DATA_DIR/media, as keys). */
  mediaFiles(): Promise<string[]> {
    return this.objects();
  }
}

/**
 * A MediaTestServer for the enclosing describe block (started before its tests, closed after them)
 * and a client signed in as a new admin of it.
 */
export function suiteMedia(options: Parameters<typeof MediaTestServer.start>[0]) {
  const media = later<MediaTestServer>('The suite media server');
  const admin = later<TestClient>('The suite media admin');
  beforeAll(async () => {
    media.set(await MediaTestServer.start(options));
    admin.set((await media.server.adminClient()).client);
  });
  afterAll(() => media.close());
  return { media, admin };
}

export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)).map((f) => path.join(entry.name, f)));
    else out.push(entry.name);
  }
  return out;
}

/**
 * One upload-chunk request through fetch: fields first with the chunk's `size` (the fast path), as
 * the web client sends them; `size: false` leaves it out, as a client of the spec would.
 */
export function sendChunk(
  client: TestClient,
  fileName: string,
  start: number,
  bytes: Buffer,
  options: { checksum?: string; fileFirst?: boolean; size?: number | false } = {},
) {
  const form = new FormData();
  const file = new Blob([new Uint8Array(bytes)]);
  if (options.fileFirst) form.append('file', file, 'blob');
  form.append('fileName', fileName);
  form.append('start', String(start));
  if (options.size !== false) form.append('size', String(options.size ?? bytes.length));
  if (options.checksum) form.append('checksum', options.checksum);
  if (!options.fileFirst) form.append('file', file, 'blob');
  return client.request('POST', '/stream/upload-chunk', { body: form });
}

/** Uploads `bytes` in chunks of `chunkSize` and answers the final offset. */
export async function uploadAll(
  client: TestClient,
  fileName: string,
  bytes: Buffer,
  chunkSize: number,
  from = 0,
  options: { size?: false } = {},
) {
  let offset = from;
  while (offset < bytes.length) {
    const chunk = bytes.subarray(offset, offset + chunkSize);
    const res = await sendChunk(client, fileName, offset, chunk, { checksum: checksumOf(chunk), ...options });
    if (res.status !== 200) throw new Error(`chunk at ${offset}: ${res.status} ${JSON.stringify(res.body)}`);
    offset = res.body.offset;
  }
  return offset;
}

export function finalize(client: TestClient, fileName: string) {
  return client.request('POST', '/stream/upload', { headers: { filename: encodeURIComponent(fileName) } });
}

/** Uploads and finalizes a clip; answers the finalize response body and the video id. */
export async function uploadVideo(client: TestClient, file: string, fileName = path.basename(file)) {
  const bytes = await readFile(file);
  await uploadAll(client, fileName, bytes, 1024 * 1024);
  const res = await finalize(client, fileName);
  if (res.status !== 200) throw new Error(`finalize: ${res.status} ${JSON.stringify(res.body)}`);
  const videoId = /videos\/([0-9a-f-]{36})\//.exec(res.body.url)![1]!;
  return { body: res.body as { url: string; deleteUrl: string; duration: string }, videoId };
}

/**
 * A chunk request that sends the multipart head and `partial` bytes of the file, then stalls: the
 * way a connection looks when it drops (or the server dies) mid-chunk.
 */
export function stalledChunk(
  baseUrl: string,
  token: string,
  fileName: string,
  start: number,
  partial: Buffer,
  /** The chunk's declared size (the fast path into a bucket part); left out by default. */
  size?: number,
) {
  const boundary = `----lectern${Date.now()}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="fileName"\r\n\r\n${fileName}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="start"\r\n\r\n${start}\r\n` +
    (size === undefined
      ? ''
      : `--${boundary}\r\nContent-Disposition: form-data; name="size"\r\n\r\n${size}\r\n`) +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const url = new URL('/stream/upload-chunk', baseUrl);
  const req: ClientRequest = httpRequest(url, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: `token=${token}` },
  });
  const response = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(-1));
  });
  req.write(head);
  req.write(partial);
  return { req, response, abort: () => req.destroy() };
}

/** Decodes the stream at `url` with ffmpeg sending `cookie`; answers decoded video frames and seconds. */
export async function decodeHls(
  url: string,
  cookie: string | undefined,
): Promise<{ frames: number; seconds: number }> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v', 'error', '-nostdin',
      ...(cookie ? ['-headers', `Cookie: token=${cookie}\r\n`] : []),
      '-i', url, '-map', '0:v:0', '-f', 'null', '-progress', 'pipe:1', '-',
    ], // prettier-ignore
    { timeout: 60_000 },
  );
  const last = (key: string) =>
    Number([...stdout.matchAll(new RegExp(`^${key}=(\\d+)`, 'gm'))].at(-1)?.[1] ?? NaN);
  return { frames: last('frame'), seconds: last('out_time_us') / 1e6 };
}

export async function exists(file: string): Promise<boolean> {
  return Boolean(await stat(file).catch(() => undefined));
}
