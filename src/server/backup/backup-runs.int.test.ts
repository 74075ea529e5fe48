import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupRuns, jobs, users } from '../db/schema';
import { jobHandlers, jobLanes, scheduledChecks } from '../wiring/job-registry';
import { JobRunner } from '../jobs/runner';
import { testEngines } from '../../../test/support/databases';
import { FaultProxy } from '../../../test/support/fault-proxy';
import { createTestBucket, type TestBucket } from '../../../test/support/stores';
import { suiteTempDirs } from '../../../test/support/temp-dirs';
import { later, suiteAdmin, TestServer } from '../../../test/support/test-server';
import { listBackups, pruneBackups, runBackup } from './index';
import { queueScheduledBackup } from './schedule';

const MINUTE = 60_000;
/** 03:00 in Asia/Kolkata (OPEN_TZ) on 2 March 2026 is 21:30 UTC on 1 March. */
const SLOT = Date.parse('2026-03-01T21:30:00Z');
const DAY = 86_400_000;

/** Job runners as main.ts starts them on each node: the registry's handlers, lanes and schedule checks. */
function startRunner(server: TestServer): JobRunner {
  const runner = new JobRunner(server.ctx, jobHandlers(server.ctx), {
    pollMs: 20,
    ...jobLanes,
    // The tests move the fake clock ahead by minutes to days while the runners poll: a claim that read
    // the clock just before a jump stamped its lock before it, and the other runner took the running
    // job for a dead worker's (attempt 2). No worker dies here, so no lock goes stale.
    staleMs: 365 * DAY,
  });
  return runner;
}

async function runsOn(server: TestServer, day: string) {
  return server.ctx.db.select().from(backupRuns).where(eq(backupRuns.scheduledFor, day));
}

async function backupJobs(server: TestServer): Promise<number> {
  const [row] = await server.ctx.db.select({ n: count() }).from(jobs).where(eq(jobs.type, 'backup.run'));
  return row!.n;
}

/** Lets every job due now finish, on whichever runner took it, with the fake clock where it is. */
async function settle(...runners: JobRunner[]) {
  for (const runner of runners) runner.wake();
  for (const runner of runners) await runner.idle(120_000);
  for (const runner of runners) await runner.idle(120_000);
}

const backupMails = (server: TestServer) =>
  server.smtp.mails.filter((m) => m.subject.includes('the scheduled backup failed'));

describe.each(testEngines())('backup runs on a folder target (%s)', (engine) => {
  const tempDir = suiteTempDirs();
  let target = '';
  const server = later<TestServer>('the backup server');
  let real: TestServer | undefined;
  let runner: JobRunner;
  let otherNode: JobRunner;

  beforeAll(async () => {
    target = path.join(await tempDir('lectern-backup-target-'), 'backups');
    real = await TestServer.start({
      engine,
      now: new Date(SLOT - MINUTE).toISOString(),
      env: { BACKUP_TARGET: target, BACKUP_KEEP: '2', BACKUP_SCHEDULE: '03:00', OPEN_TZ: 'Asia/Kolkata' },
    });
    server.set(real);
    runner = startRunner(real);
    otherNode = startRunner(real);
    await runner.start();
    await otherNode.start();
  });
  afterAll(async () => {
    await runner?.stop();
    await otherNode?.stop();
    await real?.close();
  });
  /** A signed-in admin (sessions end while the fake clock moves days ahead). */
  const signIn = async () => (await server.adminClient()).client;

  it('queues the scheduled backup once per school day, whichever node checks first', async () => {
    // 02:59 in the school's zone: not yet.
    expect(await queueScheduledBackup(server.ctx)).toBe(false);
    expect(await runsOn(server, '2026-03-02')).toHaveLength(0);

    // 03:00: both nodes check at the same moment (as their every-minute timers would).
    server.clock.set(new Date(SLOT + 20_000));
    const backupCheck = () => scheduledChecks(server.ctx).filter((c) => c.name === 'backup.schedule');
    const checks = [...backupCheck(), ...backupCheck()];
    const queued = await Promise.all(checks.map((c) => c.check()));
    expect(queued.filter(Boolean)).toHaveLength(1);
    expect(await runsOn(server, '2026-03-02')).toHaveLength(1);
    expect(await backupJobs(server)).toBe(1);

    await settle(runner, otherNode);
    const [done] = await runsOn(server, '2026-03-02');
    expect(done).toMatchObject({ trigger: 'schedule', status: 'complete', error: null, attempts: 1 });
    expect(done!.bytes).toBeGreaterThan(0);
    expect(done!.backupId).toBeTruthy();
    expect((await listBackups(server.ctx)).map((b) => b.id)).toContain(done!.backupId);

    // Later checks that day, on either node, add nothing.
    server.clock.set(new Date(SLOT + 5 * 60 * MINUTE));
    expect(await queueScheduledBackup(server.ctx)).toBe(false);
    expect(await backupJobs(server)).toBe(1);

    // The next day at 03:00 the next one.
    server.clock.set(new Date(SLOT + DAY + MINUTE));
    expect(await queueScheduledBackup(server.ctx)).toBe(true);
    await settle(otherNode, runner);
    const [next] = await runsOn(server, '2026-03-03');
    expect(next).toMatchObject({ status: 'complete' });
  });

  it('"Back up now" queues one run (a second press joins it) and keeps BACKUP_KEEP backups', async () => {
    const admin = await signIn();
    // No node takes the run between the presses: the runners wake on an enqueue and could claim it
    // before the first answer is read (the answer then says "running", as it should), or finish it
    // before the second press (which would queue a new run rather than join).
    await Promise.all([runner.stop(), otherNode.stop()]);
    let first;
    try {
      first = await admin.post('/api/admin/backups', {});
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ joined: false, run: { status: 'queued', trigger: 'manual' } });
      const second = await admin.post('/api/admin/backups', {});
      expect(second.body).toMatchObject({ joined: true, run: { id: first.body.run.id } });
    } finally {
      await Promise.all([runner.start(), otherNode.start()]);
    }

    await settle(runner, otherNode);
    const run = await admin.get(`/api/admin/backups/${first.body.run.id}`);
    expect(run.status).toBe(200);
    expect(run.body.run).toMatchObject({ status: 'complete', pruned: 1, progress: null });
    expect(run.body.run.durationMs).toBeGreaterThanOrEqual(0);
    expect(run.body.run.objectsCopied).toBeLessThanOrEqual(run.body.run.objectsTotal);

    // Three backups taken, BACKUP_KEEP=2 kept: the newest two.
    const kept = await listBackups(server.ctx);
    expect(kept).toHaveLength(2);
    expect(kept.map((b) => b.id)).toContain(run.body.run.backupId);

    const overview = await admin.get('/api/admin/backups');
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({
      active: null,
      lastFailure: null,
      schedule: { time: '03:00', timeZone: 'Asia/Kolkata', keep: 2 },
    });
    // Newest first; retention removed the oldest run's backup.
    expect(overview.body.runs.map((r: { status: string; kept: boolean }) => [r.status, r.kept])).toEqual([
      ['complete', true],
      ['complete', true],
      ['complete', false],
    ]);

    // A backup taken on the command line (no run recorded) is listed too.
    server.clock.advance(MINUTE);
    const cli = await runBackup(server.ctx);
    const withCli = await admin.get('/api/admin/backups');
    expect(withCli.body.runs[0]).toMatchObject({
      id: cli.id,
      trigger: 'cli',
      status: 'complete',
      kept: true,
    });
    expect(withCli.body.targetProblem).toBeNull();
    await pruneBackups(server.ctx, { keep: 2 });

    // The dashboard's summary: no list.
    const summary = await admin.get('/api/admin/backups?summary=true');
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ runs: [], active: null, lastFailure: null });
  });

  it('retries a failing scheduled backup, then mails every admin once and shows the reason until a backup succeeds', async () => {
    const secondAdmin = await server.createAdmin();
    // The target becomes unusable: a plain file where its folder was.
    await mkdir(target, { recursive: true });
    await rename(target, `${target}.away`);
    await writeFile(target, 'not a folder');
    const mailsBefore = backupMails(server).length;

    server.clock.set(new Date(SLOT + 2 * DAY + MINUTE));
    expect(await queueScheduledBackup(server.ctx)).toBe(true);
    await settle(runner, otherNode);
    let [run] = await runsOn(server, '2026-03-04');
    expect(run).toMatchObject({ status: 'queued', attempts: 1 });
    const reason = run!.error!;
    expect(reason).toBeTruthy();
    expect(reason).not.toContain('\n');
    expect(run!.nextAttemptAt!.getTime() - server.clock.now().getTime()).toBe(5 * MINUTE);

    // Attempts 2, 3 and 4 after 5, 15 and 45 minutes; nothing is retried early.
    for (const [waitMinutes, attempt] of [
      [5, 2],
      [15, 3],
      [45, 4],
    ] as const) {
      server.clock.advance(waitMinutes * MINUTE - 1000);
      await settle(runner, otherNode);
      expect((await runsOn(server, '2026-03-04'))[0]!.attempts).toBe(attempt - 1);
      server.clock.advance(1000);
      await settle(runner, otherNode);
      expect((await runsOn(server, '2026-03-04'))[0]!.attempts).toBe(attempt);
    }
    [run] = await runsOn(server, '2026-03-04');
    expect(run).toMatchObject({ status: 'failed', attempts: 4 });
    expect(run!.error).toBeTruthy();

    // Every admin is mailed, once.
    const admins = await server.ctx.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.role, 'admin'));
    expect(admins.map((a) => a.email)).toContain(`${secondAdmin.username}@example.test`);
    const mails = backupMails(server).slice(mailsBefore);
    const recipients = mails.flatMap((m) => m.to).sort();
    expect(recipients).toEqual(admins.map((a) => a.email).sort());
    expect(mails[0]!.text).toContain(run!.error!);
    expect(mails[0]!.text).toContain('2026-03-04');

    // The dashboard's route shows it, and keeps showing it.
    server.clock.advance(60 * MINUTE);
    const admin = await signIn();
    await settle(runner, otherNode);
    const failing = await admin.get('/api/admin/backups');
    expect(failing.body.lastFailure).toMatchObject({ id: run!.id, status: 'failed', error: run!.error });
    expect(backupMails(server).length - mailsBefore).toBe(mails.length);

    // The target is back: "Back up now" succeeds and the notice goes.
    await rm(target);
    await rename(`${target}.away`, target);
    const now = await admin.post('/api/admin/backups', {});
    expect(now.body.joined).toBe(false);
    await settle(runner, otherNode);
    const fixed = await admin.get('/api/admin/backups');
    expect(fixed.body.lastFailure).toBeNull();
    expect(fixed.body.runs.find((r: { id: string }) => r.id === now.body.run.id)).toMatchObject({
      status: 'complete',
    });
    expect(backupMails(server).length - mailsBefore).toBe(mails.length);
  });

  it('answers 404 for a run that does not exist', async () => {
    const admin = await signIn();
    const res = await admin.get('/api/admin/backups/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No backup run with this id.');
  });
});

describe.skipIf(!process.env.S3_ENDPOINT).each(testEngines())(
  'a backup to an S3 target that is down (%s)',
  (engine) => {
    let bucket: TestBucket;
    let proxy: FaultProxy;
    let real: TestServer | undefined;
    let runner: JobRunner;
    const server = later<TestServer>('the backup server');

    beforeAll(async () => {
      bucket = await createTestBucket();
      proxy = await FaultProxy.start(bucket.env.S3_ENDPOINT!);
      real = await TestServer.start({
        engine,
        now: new Date(SLOT + MINUTE).toISOString(),
        env: {
          BACKUP_TARGET: `s3://${bucket.name}/school`,
          BACKUP_S3_ENDPOINT: proxy.endpoint,
          BACKUP_S3_REGION: bucket.env.S3_REGION!,
          BACKUP_S3_ACCESS_KEY_ID: bucket.env.S3_ACCESS_KEY_ID!,
          BACKUP_S3_SECRET_ACCESS_KEY: bucket.env.S3_SECRET_ACCESS_KEY!,
          BACKUP_S3_FORCE_PATH_STYLE: 'true',
        },
      });
      server.set(real);
      runner = startRunner(real);
      await runner.start();
    });
    afterAll(async () => {
      await runner?.stop();
      await real?.close();
      await proxy?.close();
      await bucket?.drop();
    });
    const admin = suiteAdmin(server);

    it('fails with one clear reason, retries, mails the admins, and succeeds once the target is back', async () => {
      proxy.set('refuse');
      expect(await queueScheduledBackup(server.ctx)).toBe(true);
      await settle(runner);
      for (const wait of [5, 15, 45]) {
        server.clock.advance(wait * MINUTE);
        await settle(runner);
      }
      const [run] = await runsOn(server, '2026-03-02');
      expect(run).toMatchObject({ status: 'failed', attempts: 4 });
      expect(run!.error).not.toContain('\n');
      expect(run!.error).toMatch(/reach|refused|unavailable|down|connect/i);
      expect(proxy.faults).toBeGreaterThan(0);
      // The suite's admin is the only one: one mail, with the reason.
      expect(backupMails(server)).toHaveLength(1);
      expect(backupMails(server)[0]!.text).toContain(run!.error!);

      proxy.set('pass');
      const now = await admin.post('/api/admin/backups', {});
      await settle(runner);
      const after = await admin.get(`/api/admin/backups/${now.body.run.id}`);
      expect(after.body.run).toMatchObject({ status: 'complete' });
      const overview = await admin.get('/api/admin/backups');
      expect(overview.body.lastFailure).toBeNull();
      expect(
        await server.ctx.db.select({ n: count() }).from(backupRuns).where(eq(backupRuns.status, 'failed')),
      ).toEqual([{ n: 1 }]);
    });
  },
);
