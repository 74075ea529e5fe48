import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import { backupMessages, type BackupOverview, type BackupRun } from '../../contract/backups';
import { listBackups, type BackupListing } from './index';
import { oneLine } from '../jobs/run-progress';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { backupRuns, jobs } from '../db/schema';
import { nextScheduledBackup, scheduleTime } from './schedule';
import {
  activeRun,
  createRun,
  findRun,
  findRunView,
  lastSuccessAt,
  presentRun,
  recentRuns,
  runWaitingJobNow,
  unresolvedFailure,
} from './runs';

/**
 * A run still marked queued or running whose job has ended or vanished (a job cancelled or removed
 * by hand) would block every later backup: it is failed with that reason.
 */
export async function settleOrphanedRuns(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(backupRuns)
    .set({
      status: 'failed',
      error: 'The backup job ended without finishing the backup.',
      finishedAt: now,
      nextAttemptAt: null,
      phase: null,
    })
    .where(
      and(
        inArray(backupRuns.status, ['queued', 'running']),
        notExists(
          db
            .select({ one: sql`1` })
            .from(jobs)
            .where(and(eq(jobs.id, backupRuns.jobId), inArray(jobs.status, ['queued', 'running']))),
        ),
      ),
    )
    .returning({ id: backupRuns.id });
  return rows.length;
}

type Stored = { stored?: BackupListing[]; problem: string | null };

/** The backups at the target, or why they could not be listed (one line). */
async function storedBackups(ctx: AppContext): Promise<Stored> {
  try {
    return { stored: await listBackups(ctx), problem: null };
  } catch (error) {
    ctx.logger.warn({ err: error }, 'could not list the backups at the target');
    return { problem: oneLine(error) };
  }
}

/** A backup no run recorded (the command line's), as a complete `cli` run. */
const cliRun = (b: BackupListing): BackupRun => ({
  id: b.id,
  trigger: 'cli',
  status: 'complete',
  scheduledFor: null,
  requestedBy: null,
  createdAt: b.createdAt,
  startedAt: b.createdAt,
  finishedAt: null,
  durationMs: null,
  backupId: b.id,
  bytes: b.bytes,
  bytesWritten: null,
  objectsCopied: null,
  objectsTotal: b.objects,
  error: null,
  attempts: 1,
  maxAttempts: 1,
  nextAttemptAt: null,
  progress: null,
  pruned: null,
  kept: true,
});

/**
 * Runs, newest first, with whether each one's backup is still kept, merged with the backups at the
 * target that no run recorded; the schedule; the unresolved failure. The screen loads it once and
 * after each backup (progress is polled on the run itself), since listing reads every manifest.
 */
export async function backupOverview(
  ctx: AppContext,
  { summary = false }: { summary?: boolean } = {},
): Promise<BackupOverview> {
  await settleOrphanedRuns(ctx.db, ctx.clock.now());
  const [recorded, active, failure, success, { stored, problem }] = await Promise.all([
    summary ? [] : recentRuns(ctx.db),
    activeRun(ctx.db),
    unresolvedFailure(ctx.db),
    lastSuccessAt(ctx.db),
    summary ? ({ problem: null } as Stored) : storedBackups(ctx),
  ]);
  let runs = recorded;
  if (stored) {
    const storedIds = new Set(stored.map((b) => b.id));
    const recordedIds = new Set(recorded.map((r) => r.backupId));
    runs = [
      ...recorded.map((r) => ({ ...r, kept: r.backupId ? storedIds.has(r.backupId) : null })),
      ...stored.filter((b) => !recordedIds.has(b.id)).map(cliRun),
    ].sort((a, b) => (b.startedAt ?? b.createdAt).localeCompare(a.startedAt ?? a.createdAt));
  }
  const next = nextScheduledBackup(ctx);
  return {
    runs,
    targetProblem: problem,
    keysLeftOut: ctx.config.backup.passphrase ? null : backupMessages.keysLeftOut,
    active: active ? presentRun(active) : null,
    lastFailure: failure ? presentRun(failure) : null,
    lastSuccessAt: success?.toISOString() ?? null,
    schedule: {
      time: scheduleTime(ctx.config.backupSchedule),
      timeZone: ctx.config.openTimeZone,
      next: next?.toISOString() ?? null,
      keep: ctx.config.backupKeep,
    },
  };
}

/**
 * "Back up now": queues a run, or answers the one already under way on any node (one that was
 * waiting to retry runs at once).
 */
export async function requestBackup(
  ctx: AppContext,
  adminId: string,
): Promise<{ message: string; run: BackupRun; joined: boolean }> {
  const now = ctx.clock.now();
  await settleOrphanedRuns(ctx.db, now);
  for (let tries = 0; tries < 3; tries++) {
    const created = await createRun(ctx.db, { trigger: 'manual', requestedBy: adminId, now });
    if (created) {
      const run = (await findRunView(ctx.db, created.id)) ?? presentRun(created);
      return { message: backupMessages.queued, run, joined: false };
    }
    const active = await activeRun(ctx.db);
    if (active) {
      const rushed = await runWaitingJobNow(ctx.db, active, now);
      const run = (rushed && (await findRun(ctx.db, active.id))) || active;
      return {
        message: rushed ? backupMessages.retryNow : backupMessages.joined,
        run: presentRun(run),
        joined: true,
      };
    }
    // The active run finished between the two statements: try again.
  }
  throw new Error('could not queue a backup: runs kept changing');
}
