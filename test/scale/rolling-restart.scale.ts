/**
 * Rolling restart under load (issue 19): two ROLE=web nodes behind nginx on one PostgreSQL, one S3
 * bucket and Redis, viewers watching through nginx (bench/rush-client.ts, the evening rush's
 * browsers) and an admin uploading in chunks. Node A gets SIGTERM, exits 0 and is started again;
 * once it is ready, node B the same. Viewers see no failed request: while a node drains, its
 * /readyz answers 503 and its answers close their connections; once it refuses connections, nginx
 * sends GETs (and POSTs that never reached it) to the other node (`proxy_next_upstream`); a draining
 * node's 503 to a GET takes it out of nginx's rotation before its listener closes. An upload
 * chunk is a POST nginx does not resend once sent; should one be cut, the uploader does what the
 * admin screen does (src/web/admin/upload/chunked-upload.ts): asks /stream/upload-status for the
 * stored offset and carries on from there, so the upload completes byte for byte.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RushClientOptions, RushClientResult } from '../../bench/rush-client';
import { RUSH_ADMIN, RUSH_PASSWORD, seedRush, type RushSchool } from '../../bench/rush-seed';
import { benchSource } from '../../bench/streaming';
import { loadConfig } from '../../src/server/config';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { TestClient } from '../support/http-client';
import { checksumOf, sendChunk } from '../support/media-kit';
import { describeWhenReady } from '../support/preconditions';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { freePort, startServerProcess, type ServerProcess } from '../support/processes';
import { createTestBucket, type TestBucket } from '../support/stores';
import { missingInfrastructure, startBalancer, type Balancer } from './cluster';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const VIEWERS = 60;
const until = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls `probe` every 100 ms; throws naming `what` when `ms` pass without it holding. */
async function waitFor(what: string, ms: number, probe: () => Promise<boolean>) {
  const deadline = Date.now() + ms;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await until(100);
  }
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const missing = await missingInfrastructure(REDIS_URL);

/** bench/rush-client.ts in its own process (its own event loop, as the viewers' browsers are). */
function watch(options: RushClientOptions): Promise<RushClientResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/rush-client.ts', JSON.stringify(options)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as RushClientResult)
        : reject(new Error(`rush-client exited ${code}`)),
    );
  });
}

describeWhenReady('a rolling restart of two web nodes under load', missing, () => {
  let privatePg: PrivatePostgres | undefined;
  let database: TestDatabase | undefined;
  let bucket: TestBucket | undefined;
  const dataDirs: string[] = [];
  const ports: number[] = [];
  const nodes: ServerProcess[] = [];
  /** What a node logged before its restart (its new process starts a new log). */
  const stoppedOutput: string[] = [];
  let env: Record<string, string> = {};
  let lb: Balancer | undefined;
  let school: RushSchool;
  let source = '';

  beforeAll(async () => {
    let databaseUrl: string;
    if (process.env.TEST_DATABASE_URL) {
      database = await createTestDatabase('postgres', { fresh: true });
      databaseUrl = database.url;
    } else {
      const started = await startPrivatePostgres();
      if ('skip' in started) throw new Error(`no PostgreSQL: ${started.skip}`);
      privatePg = started;
      databaseUrl = started.url();
    }
    bucket = await createTestBucket();
    for (let i = 0; i < 3; i++) dataDirs.push(await mkdtemp(path.join(tmpdir(), `lectern-rolling-${i}-`)));
    env = {
      ...bucket.env,
      DATABASE_URL: databaseUrl,
      SIGNING_KEY: randomBytes(32).toString('hex'),
      REDIS_URL,
      OPEN_HOURS: 'always',
      SEED_DEMO: 'false',
      TRUST_PROXY: '1',
      ROLE: 'web',
      SHUTDOWN_DRAIN_SECONDS: '2',
      SHUTDOWN_TIMEOUT_SECONDS: '20',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    };
    // Tonight's course, packaged into the bucket before the nodes start (a small school around it).
    source = await benchSource();
    school = await seedRush(loadConfig({ ...env, DATA_DIR: dataDirs[2]! }), VIEWERS, source, 2, {
      courses: 4,
      students: VIEWERS * 2,
      videos: 8,
    });
    for (let i = 0; i < 2; i++) ports.push(await freePort());
    nodes.push(
      ...(await Promise.all(
        ports.map((port, i) => startServerProcess({ ...env, DATA_DIR: dataDirs[i]!, PORT: String(port) })),
      )),
    );
    lb = await startBalancer(ports.map((p) => `127.0.0.1:${p}`));
  }, 300_000);

  afterAll(async () => {
    await lb?.stop();
    await Promise.all(nodes.map((n) => n.stop('SIGKILL')));
    await database?.drop();
    await privatePg?.destroy();
    await bucket?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  /** SIGTERM, exit 0, start again on the same port and wait until /readyz says ready. */
  async function restart(i: number): Promise<{ code: number | null; sawDraining: boolean }> {
    const node = nodes[i]!;
    const from = node.output().length;
    const exited = node.stop('SIGTERM');
    await until(300);
    const ready = await fetch(`${node.url}/readyz`).catch(() => undefined);
    const sawDraining =
      ready?.status === 503 && ((await ready.json()) as { status: string }).status === 'draining';
    const code = await exited;
    stoppedOutput[i] = node.output();
    if (code !== 0) console.error(`node ${i} exited ${code}:\n${node.output().slice(from).slice(-3000)}`);
    nodes[i] = await startServerProcess({ ...env, DATA_DIR: dataDirs[i]!, PORT: String(ports[i]) });
    // Both waits fail the test when they run out: going on would restart the other node while this
    // one is not back, and the viewers' 502s would then blame the product for the test's haste.
    await waitFor(`node ${i} ready again`, 90_000, async () => (await fetch(`${nodes[i]!.url}/readyz`)).ok);
    // Ready is not yet back in the balancer: nginx tries a node it took out again after its
    // fail_timeout. The next node is restarted only once this one serves through nginx again,
    // as docs/OPERATIONS.md tells an operator (else nginx has, for a moment, no node it believes up).
    const addr = `127.0.0.1:${ports[i]}`;
    const logged = (await lb!.upstreams()).length;
    await waitFor(`node ${i} serving through nginx again`, 90_000, async () =>
      (await lb!.upstreams()).slice(logged).some((line) => line.startsWith(`${addr} 2`)),
    );
    return { code, sawDraining };
  }

  it('restarts node A, then node B, with no failed request and the upload complete', async () => {
    const admin = new TestClient(lb!.url);
    expect((await admin.adminLogin(RUSH_ADMIN)).status).toBe(200);
    const lbPort = Number(new URL(lb!.url).port);
    const viewing = watch({
      port: lbPort,
      courseId: school.courseId,
      students: school.students.map((s) => ({ username: s.username, password: RUSH_PASSWORD })),
      rampMs: 10_000,
      sustainMs: 50_000,
    });

    // The admin's upload, in 512 KiB chunks paced to last through both restarts, resuming as the
    // admin screen does when a chunk fails.
    const bytes = await readFile(source);
    const chunk = 512 * 1024;
    let retries = 0;
    const uploading = (async () => {
      let offset = 0;
      while (offset < bytes.length) {
        const piece = bytes.subarray(offset, offset + chunk);
        const res = await sendChunk(admin, 'rolling.mp4', offset, piece, {
          checksum: checksumOf(piece),
        }).catch(() => ({ status: 0, body: undefined }));
        if (res.status === 200) {
          offset = res.body.offset;
          await until(1_500);
          continue;
        }
        retries++;
        if (retries > 20) throw new Error(`upload gave up at ${offset}: ${res.status}`);
        await until(1_000);
        const status = await admin.get(`/stream/upload-status?fileName=rolling.mp4`);
        if (status.status === 200) offset = status.body.offset;
      }
      return admin.request('POST', '/stream/upload', { headers: { filename: 'rolling.mp4' } });
    })();

    await until(12_000); // everyone signed in and watching
    const before = (await lb!.upstreams()).length;
    const a = await restart(0);
    const b = await restart(1);
    const finalized = await uploading;
    const result = await viewing;

    const failed = Object.entries(result.kinds).filter(([, k]) => k.errors > 0);
    if (failed.length) {
      // What each side said: nginx's reasons, the answers it counted as a node's failure, and each
      // node's own warnings and errors (why a node answered 5xx or closed a connection).
      console.error(`nginx error log:\n${(await lb!.errors()).slice(0, 6000)}`);
      const fives = (await lb!.upstreams()).slice(before).filter((line) => / 5\d\d /.test(line));
      console.error(`answers with a 5xx (${fives.length}):\n${fives.slice(0, 40).join('\n')}`);
      for (const [i, node] of nodes.entries()) {
        const loud = `${stoppedOutput[i] ?? ''}${node.output()}`
          .split('\n')
          .filter((line) => /"level":(4|5)\d/.test(line));
        console.error(`node ${i} warnings and errors (${loud.length}):\n${loud.slice(-30).join('\n')}`);
      }
    }
    expect(failed, result.errorSamples.join('\n')).toEqual([]);
    expect(result.started).toBe(VIEWERS);
    expect(result.kinds.segment!.count).toBeGreaterThan(VIEWERS);
    expect(a).toEqual({ code: 0, sawDraining: true });
    expect(b).toEqual({ code: 0, sawDraining: true });

    expect(finalized.status, JSON.stringify(finalized.body)).toBe(200);
    expect(finalized.body.duration).toBe('01:00');
    const videoId = /videos\/([0-9a-f-]{36})\//.exec(finalized.body.url)![1]!;
    const stored = await bucket!.store.read(`sources/${videoId}`);
    const pieces: Buffer[] = [];
    for await (const piece of stored!.body!) pieces.push(piece as Buffer);
    expect(sha256(Buffer.concat(pieces))).toBe(sha256(bytes));

    // Both nodes served after the restarts. A line's upstreams are "A, B" when nginx tried A first
    // and B answered: the last one is the node that served it.
    const lines = (await lb!.upstreams()).slice(before);
    const answeredBy = (line: string) => /^(?:\S+, )*(\S+) (\d{3}) /.exec(line);
    const served = new Set(lines.map(answeredBy).flatMap((m) => (m && m[2]!.startsWith('2') ? [m[1]!] : [])));
    expect(served).toEqual(new Set(ports.map((p) => `127.0.0.1:${p}`)));
    const retried = lines.filter((line) => line.includes(', ')).length;
    console.log(
      `rolling restart: ${Object.values(result.kinds).reduce((n, k) => n + k.count, 0)} viewer requests, 0 failed; ` +
        `${result.kinds.segment!.count} segments; ${retried} sent on to the other node by nginx; upload of ${(bytes.length / 1e6).toFixed(1)} MB complete with ${retries} chunk retr${retries === 1 ? 'y' : 'ies'}`,
    );
  }, 300_000);
});
