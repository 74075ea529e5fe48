import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListMultipartUploadsCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProxy } from '../support/fault-proxy';
import { TestClient } from '../support/http-client';
import { decodeHls, finalize, makeClip, sha256, stalledChunk, uploadAll } from '../support/media-kit';
import { freePort, serverCommand, waitForServer } from '../support/processes';
import { createTestBucket, testStores, type TestBucket } from '../support/stores';

const ADMIN_PASSWORD = 'Crash@Test123';

/** The real server (`node --import tsx src/server/main.ts`) on its own data folder, ready to answer. */
async function startServer(
  dataDir: string,
  port: number,
  extra: Record<string, string> = {},
): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extra,
    DATA_DIR: dataDir,
    PORT: String(port),
    ADMIN_PASSWORD,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, serverCommand('main'), {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    // Its own process group, so a crash takes its ffmpeg children down with it, as a machine crash would.
    detached: true,
  });
  const started = await waitForServer(`http://127.0.0.1:${port}`, child, {
    timeoutMs: 30_000,
    intervalMs: 100,
  });
  if (started === 'ready') return child;
  if (started === 'exited') throw new Error(`server exited with ${child.exitCode}`);
  crash(child);
  throw new Error('server did not start');
}

/** SIGKILL to the server and every process it started (ffmpeg): nothing gets to clean up. */
function crash(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', r));

describe.each(testStores())('media survives the server being killed (%s store)', (store) => {
  const children: ChildProcess[] = [];
  let dataDir = '';
  let bucket: TestBucket | undefined;
  let proxy: FaultProxy | undefined;
  /** The server's store settings: a bucket reached through a fault proxy (to slow it on demand). */
  let storeEnv: Record<string, string> = {};
  beforeAll(async () => {
    if (store !== 's3') return;
    bucket = await createTestBucket();
    proxy = await FaultProxy.start(process.env.S3_ENDPOINT!);
    storeEnv = { ...bucket.env, S3_ENDPOINT: proxy.endpoint };
  });
  afterAll(async () => {
    for (const child of children) crash(child);
    await Promise.all(children.map(exited));
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    await proxy?.close();
    await bucket?.drop();
  });

  /** The uploaded source's bytes, from the store the server used. */
  async function sourceBytes(videoId: string): Promise<Buffer> {
    if (!bucket) return readFile(path.join(dataDir, 'media', 'sources', videoId));
    const read = await bucket.store.read(`sources/${videoId}`);
    const pieces: Buffer[] = [];
    for await (const piece of read!.body!) pieces.push(piece as Buffer);
    return Buffer.concat(pieces);
  }

  it('reports an intact offset after SIGKILL and a restart, and finishes byte-identical', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-crash-'));
    const port = await freePort();
    // A bucket takes 5 MiB chunks as parts (S3's minimum): the cut chunk is a part in flight.
    const chunk = store === 's3' ? 5 * 1024 * 1024 : 2 * 1024 * 1024;
    const clip = await readFile(
      await makeClip({ seconds: store === 's3' ? 20 : 10, width: 1280, height: 720 }),
    );
    expect(clip.length).toBeGreaterThan(3 * chunk);

    const first = await startServer(dataDir, port, storeEnv);
    children.push(first);
    const admin = new TestClient(`http://127.0.0.1:${port}`);
    expect((await admin.adminLogin({ username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    expect(await uploadAll(admin, 'crash.mp4', clip.subarray(0, 2 * chunk), chunk)).toBe(2 * chunk);

    // Half of the third chunk reaches the server, then the process dies without any chance to clean up.
    const cut = stalledChunk(
      admin.baseUrl,
      admin.token!,
      'crash.mp4',
      2 * chunk,
      clip.subarray(2 * chunk, 2 * chunk + chunk / 2),
      store === 's3' ? chunk : undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    crash(first);
    await exited(first);
    cut.abort();

    const second = await startServer(dataDir, port, storeEnv);
    children.push(second);
    const status = await admin.get('/stream/upload-status?fileName=crash.mp4');
    expect(status.status).toBe(200);
    const offset: number = status.body.offset;
    expect(offset).toBe(2 * chunk);
    if (bucket) {
      // The bucket agrees: the two acknowledged parts, and nothing of the part cut in flight.
      const { Uploads } = await bucket.client.send(new ListMultipartUploadsCommand({ Bucket: bucket.name }));
      expect(Uploads).toHaveLength(1);
      const { Parts } = await bucket.client.send(
        new ListPartsCommand({ Bucket: bucket.name, Key: Uploads![0]!.Key, UploadId: Uploads![0]!.UploadId }),
      );
      expect(Parts!.map((p) => [p.PartNumber, p.Size])).toEqual([
        [1, chunk],
        [2, chunk],
      ]);
    } else {
      const uploadsDir = path.join(dataDir, 'media', 'uploads');
      const [stored] = (await readdir(uploadsDir)).filter((f) => !f.startsWith('.'));
      const onDisk = await readFile(path.join(uploadsDir, stored!));
      expect(onDisk.length).toBeGreaterThan(offset); // the cut chunk had reached the disk, unacknowledged
      expect(sha256(onDisk.subarray(0, offset))).toBe(sha256(clip.subarray(0, offset)));
    }

    expect(await uploadAll(admin, 'crash.mp4', clip, chunk, offset)).toBe(clip.length);
    const done = await finalize(admin, 'crash.mp4');
    expect(done.status).toBe(200);
    expect(done.body.duration).toBe(store === 's3' ? '00:20' : '00:10');
    expect(sha256(await sourceBytes(done.body.url.split('/')[3]))).toBe(sha256(clip));
    let playlist = 0;
    for (let i = 0; i < 100 && playlist !== 200; i++) {
      playlist = (await admin.get(done.body.url)).status;
      if (playlist !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(playlist).toBe(200);
  }, 90_000);

  it.runIf(store === 's3')(
    'lists no rendition a worker killed mid-upload left half in the bucket; the restart publishes it whole',
    async () => {
      for (const child of children) crash(child);
      await Promise.all(children.map(exited));
      const port = await freePort();
      const first = await startServer(dataDir, port, storeEnv);
      children.push(first);
      const admin = new TestClient(`http://127.0.0.1:${port}`);
      expect((await admin.adminLogin({ username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
      // H.264: a remux in a moment, then seconds of uploading renditions through a slowed link.
      const clip = await readFile(await makeClip({ seconds: 10, width: 1280, height: 720 }));
      await uploadAll(admin, 'published.mp4', clip, 5 * 1024 * 1024);
      proxy!.bytesPerSecond = 1024 * 1024;
      proxy!.set('slow');
      const done = await finalize(admin, 'published.mp4');
      expect(done.status).toBe(200);
      const videoId: string = done.body.url.split('/')[3];
      const published = () => bucket!.store.list(`videos/${videoId}/`);
      for (let i = 0; i < 600 && (await published()).length === 0; i++)
        await new Promise((r) => setTimeout(r, 25));
      expect((await published()).length).toBeGreaterThan(0);
      crash(first);
      await exited(first);
      const half = await published();
      expect(half.length).toBeGreaterThan(0); // some objects of the rendition made it, not all
      expect(half.length).toBeLessThan(clip.length / 200_000);

      const second = await startServer(dataDir, port, storeEnv);
      children.push(second);
      expect((await admin.get(done.body.url)).status).toBe(409); // still processing: nothing listed
      proxy!.set('pass');
      let status = 0;
      for (let i = 0; i < 300 && status !== 200; i++) {
        status = (await admin.get(done.body.url)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      const decoded = await decodeHls(`${admin.baseUrl}${done.body.url}`, admin.token);
      expect(decoded.frames).toBeGreaterThanOrEqual(249);
    },
    90_000,
  );

  it('retries packaging cut short by SIGKILL after the restart, never showing a video with missing files', async () => {
    // Reuses the data folder of the test above (its server is still running; stop it first).
    for (const child of children) crash(child);
    await Promise.all(children.map(exited));
    const port = await freePort();
    const first = await startServer(dataDir, port, storeEnv);
    children.push(first);
    const admin = new TestClient(`http://127.0.0.1:${port}`);
    expect((await admin.adminLogin({ username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    // MPEG-4 Part 2 needs a transcode: seconds of work to interrupt.
    const clip = await readFile(
      await makeClip({ seconds: 20, width: 640, height: 360, codec: 'mpeg4', format: 'matroska' }),
    );
    await uploadAll(admin, 'transcode.mkv', clip, 1024 * 1024);
    const done = await finalize(admin, 'transcode.mkv');
    expect(done.status).toBe(200);
    const videoId = done.body.deleteUrl.split('/').at(-1);
    const staging = path.join(dataDir, 'media', 'staging');
    for (
      let i = 0;
      i < 100 && !(await readdir(staging).catch(() => [])).some((f) => f.startsWith(videoId));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 300));
    crash(first);
    await exited(first);
    // Mid-transcode: nothing in the served folder (or under the video's prefix) yet, only staging output.
    expect(await readdir(path.join(dataDir, 'media', 'videos', videoId)).catch(() => 'absent')).toBe(
      'absent',
    );
    if (bucket) expect(await bucket.store.list(`videos/${videoId}/`)).toEqual([]);

    const second = await startServer(dataDir, port, storeEnv);
    children.push(second);
    expect((await admin.get(done.body.url)).status).toBe(409); // still processing, not "ready" with holes
    let status = 0;
    for (let i = 0; i < 300 && status !== 200; i++) {
      status = (await admin.get(done.body.url)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    const decoded = await decodeHls(`${admin.baseUrl}${done.body.url}`, admin.token);
    expect(decoded.frames).toBeGreaterThanOrEqual(499);
  }, 90_000);
});
