import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from '../testing/http-client';
import { decodeHls, finalize, makeClip, sha256, stalledChunk, uploadAll } from './testing/media-kit';

const ADMIN_PASSWORD = 'Crash@Test123';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The real server (`node --import tsx src/server/main.ts`) on its own data folder, ready to answer. */
async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    ADMIN_PASSWORD,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/time`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', r));

describe('an upload survives the server being killed mid-chunk', () => {
  const children: ChildProcess[] = [];
  let dataDir = '';
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('reports an intact offset after SIGKILL and a restart, and finishes byte-identical', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-crash-'));
    const port = await freePort();
    const clip = await readFile(await makeClip({ seconds: 10, width: 1280, height: 720 }));
    const chunk = 2 * 1024 * 1024;

    const first = await startServer(dataDir, port);
    children.push(first);
    const admin = new TestClient(`http://127.0.0.1:${port}`);
    expect(
      (await admin.post('/api/admin/login', { username: 'admin', password: ADMIN_PASSWORD })).status,
    ).toBe(200);
    expect(await uploadAll(admin, 'crash.mp4', clip.subarray(0, 2 * chunk), chunk)).toBe(2 * chunk);

    // Half of the third chunk reaches the server, then the process dies without any chance to clean up.
    const cut = stalledChunk(
      admin.baseUrl,
      admin.token!,
      'crash.mp4',
      2 * chunk,
      clip.subarray(2 * chunk, 2 * chunk + chunk / 2),
    );
    await new Promise((r) => setTimeout(r, 300));
    first.kill('SIGKILL');
    await exited(first);
    cut.abort();

    const second = await startServer(dataDir, port);
    children.push(second);
    const status = await admin.get('/stream/upload-status?fileName=crash.mp4');
    expect(status.status).toBe(200);
    const offset: number = status.body.offset;
    expect(offset).toBe(2 * chunk);
    const uploadsDir = path.join(dataDir, 'media', 'uploads');
    const [stored] = (await readdir(uploadsDir)).filter((f) => !f.startsWith('.'));
    const onDisk = await readFile(path.join(uploadsDir, stored!));
    expect(onDisk.length).toBeGreaterThan(offset); // the cut chunk had reached the disk, unacknowledged
    expect(sha256(onDisk.subarray(0, offset))).toBe(sha256(clip.subarray(0, offset)));

    expect(await uploadAll(admin, 'crash.mp4', clip, chunk, offset)).toBe(clip.length);
    expect(sha256(await readFile(path.join(uploadsDir, stored!)))).toBe(sha256(clip));
    const done = await finalize(admin, 'crash.mp4');
    expect(done.status).toBe(200);
    expect(done.body.duration).toBe('00:10');
    let playlist = 0;
    for (let i = 0; i < 100 && playlist !== 200; i++) {
      playlist = (await admin.get(done.body.url)).status;
      if (playlist !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(playlist).toBe(200);
  }, 90_000);

  it('retries packaging cut short by SIGKILL after the restart, never showing a video with missing files', async () => {
    // Reuses the data folder of the test above (its server is still running; stop it first).
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    const port = await freePort();
    const first = await startServer(dataDir, port);
    children.push(first);
    const admin = new TestClient(`http://127.0.0.1:${port}`);
    expect(
      (await admin.post('/api/admin/login', { username: 'admin', password: ADMIN_PASSWORD })).status,
    ).toBe(200);
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
    first.kill('SIGKILL');
    await exited(first);
    // Mid-transcode: nothing in the served folder yet, only staging output.
    expect(await readdir(path.join(dataDir, 'media', 'videos', videoId)).catch(() => 'absent')).toBe(
      'absent',
    );

    const second = await startServer(dataDir, port);
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
