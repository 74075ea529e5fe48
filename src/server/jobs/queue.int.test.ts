import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../clock';
import { loadConfig } from '../config';
import type { AppContext } from '../context';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';
import { openRuntime, type Runtime } from '../runtime';
import { createTestDatabase, testEngines, type TestDatabase } from '../../../test/support/databases';
import { cancelJobs, claimJob, enqueueJob } from './queue';
import { JobRunner } from './runner';
import { PermanentJobError, type JobHandlers } from './types';

describe.each(testEngines())('database job queue (%s)', (engine) => {
  let testDb: TestDatabase;
  let dataDir: string;
  let runtime: Runtime;
  let database: Database['db'];
  let ctx: AppContext;
  const clock = new FakeClock('2026-03-02T08:00:00Z');

  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-jobs-'));
    const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: testDb.url, DATA_DIR: dataDir });
    runtime = await openRuntime(config, { clock, databaseImage: testDb.image });
    ctx = runtime.ctx;
    database = ctx.db;
  });
  afterAll(async () => {
    await runtime?.close();
    await testDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.delete(jobs);
  });

  const statusOf = async (id: string) => (await database.select().from(jobs).where(eq(jobs.id, id)))[0]!;

  function runnerWith(handler: JobHandlers['accounts.purge-expired'], options = {}) {
    return new JobRunner(ctx, { 'accounts.purge-expired': handler } as JobHandlers, {
      pollMs: 20,
      ...options,
    });
  }

  it('runs a job enqueued while the runner idles at once, and one the clock makes due when asked', async () => {
    const ran: string[] = [];
    // Looks 10 s apart, then (embedded) up to a minute: only the enqueue's wake can start the job in 5 s.
    const runner = runnerWith(async () => void ran.push('now'), { pollMs: 10_000, idlePollMs: 60_000 });
    await runner.start();
    await runner.idle();
    const id = await enqueueJob(database, 'accounts.purge-expired', {});
    await vi.waitFor(() => expect(ran).toHaveLength(1), { timeout: 5_000, interval: 50 });
    await vi.waitFor(async () => expect(await statusOf(id)).toMatchObject({ status: 'done' }));
    // Due in an hour by the clock: not run now; run once the clock gets there and idle() is asked.
    const later = await enqueueJob(
      database,
      'accounts.purge-expired',
      {},
      { runAt: new Date(clock.now().getTime() + 3_600_000) },
    );
    await runner.idle();
    expect((await statusOf(later)).status).toBe('queued');
    clock.advance(3_600_000);
    await runner.idle(5_000);
    await runner.stop();
    expect(ran).toHaveLength(2);
    expect(await statusOf(later)).toMatchObject({ status: 'done' });
  });

  it('runs a queued job once and marks it done', async () => {
    let runs = 0;
    const runner = runnerWith(async () => void runs++);
    const id = await enqueueJob(database, 'accounts.purge-expired', {});
    await runner.start();
    await runner.idle();
    await runner.stop();
    expect(runs).toBe(1);
    expect(await statusOf(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('retries a failing job with backoff, then gives up as failed with the last error', async () => {
    let runs = 0;
    const runner = runnerWith(async () => {
      runs++;
      throw new Error(`flaky ${runs}`);
    });
    const id = await enqueueJob(database, 'accounts.purge-expired', {}, { maxAttempts: 2 });
    await runner.start();
    await runner.idle();
    expect(await statusOf(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: 'flaky 1' });
    clock.advance(5_000); // the first backoff
    runner.wake();
    await runner.idle();
    await runner.stop();
    expect(runs).toBe(2);
    expect(await statusOf(id)).toMatchObject({ status: 'failed', attempts: 2, lastError: 'flaky 2' });
  });

  it('does not retry a permanent failure', async () => {
    const runner = runnerWith(async () => {
      throw new PermanentJobError('not a video');
    });
    const id = await enqueueJob(database, 'accounts.purge-expired', {});
    await runner.start();
    await runner.idle();
    await runner.stop();
    expect(await statusOf(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'not a video' });
  });

  it('claims exactly one job when several are due, oldest first', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await enqueueJob(database, 'accounts.purge-expired', {}, { runAt: clock.now() }));
      clock.advance(1);
    }
    const claimed = await claimJob(database, 'worker', clock.now(), 60_000);
    expect(claimed?.id).toBe(ids[0]);
    const running = await database.select({ id: jobs.id }).from(jobs).where(eq(jobs.status, 'running'));
    expect(running.map((r) => r.id)).toEqual([ids[0]]);
  });

  it('lets another worker take over a job whose worker died (stale lock)', async () => {
    const id = await enqueueJob(database, 'accounts.purge-expired', {});
    const first = await claimJob(database, 'dead-worker', clock.now(), 60_000);
    expect(first?.id).toBe(id);
    expect(await claimJob(database, 'other', clock.now(), 60_000)).toBeUndefined();
    clock.advance(60_001);
    const second = await claimJob(database, 'other', clock.now(), 60_000);
    expect(second).toMatchObject({ id, lockedBy: 'other', attempts: 2 });
  });

  it('aborts a running job when it is cancelled', async () => {
    let aborted = false;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const runner = runnerWith(
      (_p, { signal }) =>
        new Promise<void>((_, reject) => {
          started();
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
      { heartbeatMs: 20 },
    );
    const id = await enqueueJob(database, 'accounts.purge-expired', { videoId: 'v1' } as never);
    await runner.start();
    await running;
    expect(await cancelJobs(database, 'accounts.purge-expired', { videoId: 'v1' }, clock.now())).toBe(1);
    await runner.idle();
    await runner.stop();
    expect(aborted).toBe(true);
    expect((await statusOf(id)).status).toBe('cancelled');
  });
  it('leaves a slot for a short job while two long background jobs are queued', async () => {
    const released: (() => void)[] = [];
    const started: string[] = [];
    const long = (name: string) => () =>
      new Promise<void>((resolve) => {
        started.push(name);
        released.push(resolve);
      });
    let frameTaken!: () => void;
    const frame = new Promise<void>((r) => (frameTaken = r));
    const runner = new JobRunner(
      ctx,
      {
        'media.ladder': long('ladder'),
        'search.index': long('index'),
        'learning.frame': async () => {
          started.push('frame');
          frameTaken();
        },
      } as unknown as JobHandlers,
      {
        pollMs: 20,
        concurrency: 2,
        typeLimits: { 'media.ladder': 1, 'search.index': 1, 'learning.frame': 1 },
        backgroundTypes: ['media.ladder', 'search.index'],
      },
    );
    await enqueueJob(database, 'media.ladder', { videoId: 'v1' } as never);
    await enqueueJob(database, 'search.index', { videoId: 'v1' } as never, { priority: 5 });
    await enqueueJob(database, 'learning.frame', { questionId: 'q1' });
    await runner.start();
    await frame;
    // The index (higher priority) took the one background slot; the frame did not wait for it.
    expect(started).toEqual(['index', 'frame']);
    released.shift()!();
    await expect.poll(() => started).toEqual(['index', 'frame', 'ladder']);
    released.shift()!();
    await runner.idle();
    await runner.stop();
    const statuses = await database.select({ type: jobs.type, status: jobs.status }).from(jobs);
    expect(statuses.map((j) => j.status)).toEqual(['done', 'done', 'done']);
  });
});
