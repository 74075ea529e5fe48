/**
 * Graceful shutdown (issue 19, docs/OPERATIONS.md "Shutdown"): SIGTERM to a real server while an
 * upload chunk is still arriving slowly and a ladder job is running in ffmpeg. The chunk completes
 * and is acknowledged, /readyz answers 503 at once while the process still serves (a GET elsewhere
 * with a 503, a POST itself), new connections
 * are refused after the drain, the job goes back to the queue (not failed), the process exits 0,
 * and the next start finishes the job.
 */
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';
import { jobs } from '../../src/server/db/schema';
import { DRAINING_MESSAGE } from '../../src/server/health/routes';
import { TestClient } from '../support/http-client';
import { finalize, makeClip, uploadAll } from '../support/media-kit';
import { startServerProcess, type ServerProcess } from '../support/processes';

const ADMIN_PASSWORD = 'Drain@Test123';
const until = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One upload chunk whose file part trickles in over `seconds`; resolves with the status and body. */
function slowChunk(
  baseUrl: string,
  token: string,
  fileName: string,
  start: number,
  bytes: Buffer,
  seconds: number,
) {
  const boundary = `----lectern${Date.now()}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head =
    field('fileName', fileName) +
    field('start', String(start)) +
    field('size', String(bytes.length)) +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const req = httpRequest(new URL('/stream/upload-chunk', baseUrl), {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: `token=${token}` },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  void (async () => {
    req.write(head);
    const pieces = 20;
    const size = Math.ceil(bytes.length / pieces);
    for (let i = 0; i < pieces; i++) {
      req.write(bytes.subarray(i * size, (i + 1) * size));
      await until((seconds * 1000) / pieces);
    }
    req.end(`\r\n--${boundary}--\r\n`);
  })();
  return answer;
}

/** The command names of `pid`'s children (ffmpeg while a job encodes). */
function childCommands(pid: number): string[] {
  try {
    return execFileSync('ps', ['-o', 'comm=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

const ladderJobs = async (dataDir: string) => {
  const database = await openDatabase({ url: undefined, dataDir, migrate: false });
  try {
    return await database.db
      .select({ status: jobs.status, lockedBy: jobs.lockedBy, lastError: jobs.lastError })
      .from(jobs)
      .where(eq(jobs.type, 'media.ladder'));
  } finally {
    await database.close();
  }
};

describe('graceful shutdown on SIGTERM', () => {
  let dataDir = '';
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  it('finishes the request in flight, answers 503 on /readyz, requeues the running job and exits 0', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-drain-'));
    const env = {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SHUTDOWN_DRAIN_SECONDS: '2',
      SHUTDOWN_TIMEOUT_SECONDS: '20',
    };
    const first = await startServerProcess(env);
    servers.push(first);
    const admin = new TestClient(first.url);
    expect((await admin.adminLogin({ username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

    // A lecture whose ladder (ffmpeg, several seconds) is running when the signal comes: 720p, so
    // two rungs (540 and 360) to encode; one short rung could finish before the signal.
    const lecture = await readFile(await makeClip({ seconds: 20, width: 1280, height: 720 }));
    await uploadAll(admin, 'lecture.mp4', lecture, 4 * 1024 * 1024);
    const done = await finalize(admin, 'lecture.mp4');
    expect(done.status).toBe(200);
    // A second upload whose next chunk is still arriving when the signal comes.
    const other = await readFile(await makeClip({ seconds: 4 }));
    const half = Math.floor(other.length / 2);
    expect(await uploadAll(admin, 'slow.mp4', other.subarray(0, half), half)).toBe(half);

    // Playable first (the remux), so the ffmpeg seen next is the ladder's.
    for (let i = 0; i < 300 && (await admin.get(done.body.url)).status !== 200; i++) await until(100);
    for (let i = 0; i < 200 && !childCommands(first.child.pid!).includes('ffmpeg'); i++) await until(100);
    expect(childCommands(first.child.pid!)).toContain('ffmpeg');
    expect((await ladderJobs(dataDir).catch(() => undefined)) ?? 'in use').toBe('in use'); // the server holds the database

    const chunk = slowChunk(first.url, admin.token!, 'slow.mp4', half, other.subarray(half), 3);
    await until(500);
    const exited = first.stop('SIGTERM');
    await until(200);
    // Draining: readiness 503 at once, while it still answers everything else.
    const ready = await fetch(`${first.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { status: string }).status).toBe('draining');
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    // A GET goes elsewhere: 503 with a retry (nginx sends it to the other node and takes this one
    // out); a POST is still served, since a balancer would not send it again.
    const page = await fetch(`${first.url}/api/time`);
    expect([page.status, page.headers.get('retry-after'), page.headers.get('connection')]).toEqual([
      503,
      '1',
      'close',
    ]);
    expect(await page.json()).toEqual({ message: DRAINING_MESSAGE });
    const post = await admin.adminLogin({ username: 'admin', password: ADMIN_PASSWORD });
    expect(post.status).toBe(200);

    // The chunk sent before the signal completes after it (3 s of trickle outlast the 2 s drain).
    const answer = await chunk;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ offset: other.length });
    // The drain is over: the listener is closed.
    expect(
      await fetch(`${first.url}/healthz`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
    expect(await exited).toBe(0);
    expect(first.output()).toContain('job interrupted by shutdown; it will be retried');

    // Back in the queue, neither failed nor lost.
    expect(await ladderJobs(dataDir)).toEqual([{ status: 'queued', lockedBy: null, lastError: null }]);

    // The next start knows the whole acknowledged chunk, and finishes the ladder.
    const second = await startServerProcess(env);
    servers.push(second);
    const again = new TestClient(second.url);
    expect((await again.adminLogin({ username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    expect((await again.get('/stream/upload-status?fileName=slow.mp4')).body).toEqual({
      offset: other.length,
    });
    let variants = 0;
    for (let i = 0; i < 600 && variants < 2; i++) {
      const master = await again.get(done.body.url);
      variants = master.status === 200 ? (String(master.body).match(/STREAM-INF/g) ?? []).length : 0;
      if (variants < 2) await until(200);
    }
    expect(variants).toBeGreaterThan(1);
    // Rungs are listed as they finish: wait for ffmpeg to be done with the ladder.
    for (let quiet = 0, i = 0; quiet < 15 && i < 600; i++) {
      quiet = childCommands(second.child.pid!).includes('ffmpeg') ? 0 : quiet + 1;
      await until(200);
    }
    expect(await second.stop('SIGTERM')).toBe(0);
    expect((await ladderJobs(dataDir)).map((j) => j.status)).toEqual(['done']);
  }, 180_000);
});
