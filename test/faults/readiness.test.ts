/**
 * Readiness names the dependency that is down (issue 19): a real server on a private PostgreSQL, a
 * bucket behind a fault proxy and a private Redis. Each is stopped in turn: `/readyz` answers 503
 * naming it, `/healthz` stays 200, the doctor fails on that line; when it returns,
 * `/readyz` is 200 again.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FaultProxy } from '../support/fault-proxy';
import { describeWhenReady } from '../support/preconditions';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes';
import { createTestBucket, type TestBucket } from '../support/stores';

const until = (ms: number) => new Promise((r) => setTimeout(r, ms));
const missing = process.env.S3_ENDPOINT
  ? undefined
  : 'no S3 server (eval "$(../shared/tools/s3-server/start)")';

interface Readiness {
  status: string;
  checks: Record<string, { ok: boolean; ms: number; error?: string }>;
}

describeWhenReady('readiness when a dependency stops', missing, () => {
  let pg: PrivatePostgres | undefined;
  let redis: PrivateRedis | undefined;
  let bucket: TestBucket | undefined;
  let proxy: FaultProxy | undefined;
  let server: ServerProcess | undefined;
  let dataDir = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    const startedPg = await startPrivatePostgres();
    if ('skip' in startedPg) throw new Error(startedPg.skip);
    pg = startedPg;
    const startedRedis = await startPrivateRedis();
    if ('skip' in startedRedis) throw new Error(startedRedis.skip);
    redis = startedRedis;
    bucket = await createTestBucket();
    proxy = await FaultProxy.start(process.env.S3_ENDPOINT!);
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-ready-'));
    env = {
      ...bucket.env,
      S3_ENDPOINT: proxy.endpoint,
      DATABASE_URL: pg.url(),
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      SIGNING_KEY: randomBytes(32).toString('hex'),
      SEED_DEMO: 'false',
    };
    server = await startServerProcess(env);
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await redis?.stop();
    await pg?.destroy();
    await proxy?.close();
    await bucket?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const readiness = async () => {
    const res = await fetch(`${server!.url}/readyz`);
    return { status: res.status, body: (await res.json()) as Readiness };
  };

  /** Polls /readyz until `wanted` (the store's probe is cached for 10 s). */
  async function readinessUntil(wanted: (r: { status: number; body: Readiness }) => boolean, what: string) {
    let last: { status: number; body: Readiness } | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await until(250)) {
      last = await readiness();
      if (wanted(last)) return last;
    }
    throw new Error(`${what}: /readyz never did; last ${JSON.stringify(last)}`);
  }

  /** Stops `name`, checks readiness, health and the doctor, brings it back and checks readiness again. */
  async function outage(name: string, stop: () => Promise<void>, restart: () => Promise<void>) {
    await stop();
    const down = await readinessUntil((r) => r.status === 503 && !r.body.checks[name]!.ok, `${name} down`);
    expect(down.body.status).toBe('not ready');
    expect(down.body.checks[name]!.error).toMatch(/\S/);
    expect(down.body.checks[name]!.error).not.toContain('\n');
    // No secret in the answer, even when an error quotes a URL.
    const text = JSON.stringify(down.body);
    for (const secret of [env.S3_SECRET_ACCESS_KEY!, env.SIGNING_KEY!]) expect(text).not.toContain(secret);
    expect((await fetch(`${server!.url}/healthz`)).status).toBe(200);

    const doctor = await runCli(['doctor'], env);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(1);
    expect(doctor.stdout).toMatch(new RegExp(`^fail +${name} `, 'm'));
    expect(doctor.stdout).not.toContain(env.S3_SECRET_ACCESS_KEY!);

    await restart();
    await readinessUntil((r) => r.status === 200, `${name} back`);
  }

  it('is ready with every dependency up, naming each check', async () => {
    const { status, body } = await readinessUntil((r) => r.status === 200, 'ready at start');
    expect(status).toBe(200);
    expect(Object.keys(body.checks).sort()).toEqual([
      'backup',
      'database',
      'disk',
      'ffmpeg',
      'live ingest',
      'migrations',
      'redis',
      'store',
      'tesseract',
    ]);
    const doctor = await runCli(['doctor'], env);
    expect(doctor.stdout).not.toMatch(/^fail/m);
    expect(doctor.stdout).toMatch(/^ok +settings +.*S3_SECRET_ACCESS_KEY=•••/m);
    expect(doctor.code).toBe(0);
  }, 60_000);

  it(
    'names PostgreSQL when it stops, and is ready when it returns',
    () =>
      outage(
        'database',
        () => pg!.stop('fast'),
        () => pg!.start(),
      ),
    120_000,
  );

  it(
    'names the store when the bucket is unreachable, and is ready when it returns',
    () =>
      outage(
        'store',
        async () => proxy!.set('refuse'),
        async () => proxy!.set('pass'),
      ),
    120_000,
  );

  it(
    'names Redis when it stops, and is ready when it returns',
    () =>
      outage(
        'redis',
        () => redis!.stop(),
        () => redis!.start(),
      ),
    120_000,
  );
});
