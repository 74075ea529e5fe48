import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { BackupRun as BackupRunView } from '../../contract/backups';
import { isUniqueViolation } from '../db/unique-violation';
import type { Db } from '../db/client';
import { hasRow } from '../db/has-row';
import { backupRuns, jobs, users, type BackupTrigger } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import './run-job-type';

export type BackupRunRow = typeof backupRuns.$inferSelect;

/** A scheduled backup tries this often (1 + retries); an admin's "Back up now" once, as they watch it. */
export const SCHEDULED_ATTEMPTS = 4;
export const MANUAL_ATTEMPTS = 1;
/** Waits between a scheduled backup's attempts: a target that is away gets the time to come back. */
export const RETRY_DELAYS_MS = [5 * 60_000, 15 * 60_000, 45 * 60_000] as const;
export const retryDelayMs = (attempt: number) =>
  RETRY_DELAYS_MS[Math.min(attempt - 1, RETRY_DELAYS_MS.length - 1)]!;

const ACTIVE = ['queued', 'running'] as const;

export async function activeRun(db: Db): Promise<BackupRunRow | undefined> {
  const [row] = await db
    .select()
    .from(backupRuns)
    .where(inArray(backupRuns.status, [...ACTIVE]))
    .limit(1);
  return row;
}

export async function findRun(db: Db, id: string): Promise<BackupRunRow | undefined> {
  const [row] = await db.select().from(backupRuns).where(eq(backupRuns.id, id));
  return row;
}

/**
 * Adds a run and its `backup.run` job in one transaction, unless a run is already queued or running
 * anywhere (the partial unique index decides, across nodes) or, for a scheduled run, this school day
 * already has one. Returns the new run, or undefined when it was not added.
 */
export async function createRun(
  db: Db,
  input: { trigger: BackupTrigger; scheduledFor?: string; requestedBy?: string; now: Date },
): Promise<BackupRunRow | undefined> {
  const maxAttempts = input.trigger === 'schedule' ? SCHEDULED_ATTEMPTS : MANUAL_ATTEMPTS;
  try {
    return await db.transaction(async (tx) => {
      const [run] = await tx
        .insert(backupRuns)
        .values({
          trigger: input.trigger,
          scheduledFor: input.scheduledFor ?? null,
          requestedBy: input.requestedBy ?? null,
          maxAttempts,
          createdAt: input.now,
        })
        .returning();
      const jobId = await enqueueJob(tx, 'backup.run', { runId: run!.id }, { maxAttempts, priority: 5 });
      const [withJob] = await tx
        .update(backupRuns)
        .set({ jobId })
        .where(eq(backupRuns.id, run!.id))
        .returning();
      return withJob;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** Whether this school day's scheduled run exists (queued, done or failed). */
export async function hasScheduledRun(db: Db, day: string): Promise<boolean> {
  return hasRow(db, backupRuns, eq(backupRuns.scheduledFor, day));
}

export async function hasAnyRun(db: Db): Promise<boolean> {
  return hasRow(db, backupRuns);
}

/**
 * "Back up now" while a run waits for its next attempt: its job becomes due now. Returns whether
 * it was waiting.
 */
export async function runWaitingJobNow(db: Db, run: BackupRunRow, now: Date): Promise<boolean> {
  if (run.status !== 'queued' || !run.jobId) return false;
  const moved = await db
    .update(jobs)
    .set({ runAt: now, updatedAt: now })
    .where(and(eq(jobs.id, run.jobId), eq(jobs.status, 'queued'), gt(jobs.runAt, now)))
    .returning({ id: jobs.id });
  if (moved.length) await db.update(backupRuns).set({ nextAttemptAt: now }).where(eq(backupRuns.id, run.id));
  return moved.length > 0;
}

/** An attempt starts: the run is running (again), its progress cleared. Undefined when it is no longer active. */
export async function startAttempt(
  db: Db,
  id: string,
  attempt: number,
  now: Date,
): Promise<BackupRunRow | undefined> {
  const [row] = await db
    .update(backupRuns)
    .set({
      status: 'running',
      attempts: attempt,
      startedAt: sql`coalesce(${backupRuns.startedAt}, ${now})`,
      nextAttemptAt: null,
      phase: 'starting',
      progressDone: 0,
      progressTotal: null,
      progressBytes: 0,
      progressAt: now,
    })
    .where(and(eq(backupRuns.id, id), inArray(backupRuns.status, [...ACTIVE])))
    .returning();
  return row;
}

export async function saveProgress(
  db: Db,
  id: string,
  progress: { phase: string; done: number; total: number; bytes: number },
  now: Date,
): Promise<void> {
  await db
    .update(backupRuns)
    .set({
      phase: progress.phase,
      progressDone: progress.done,
      progressTotal: progress.total,
      progressBytes: progress.bytes,
      progressAt: now,
    })
    .where(and(eq(backupRuns.id, id), eq(backupRuns.status, 'running')));
}

export async function completeRun(
  db: Db,
  id: string,
  result: {
    backupId: string;
    bytes: number;
    bytesWritten: number;
    objectsCopied: number;
    objectsTotal: number;
    pruned: number | null;
  },
  now: Date,
): Promise<void> {
  await db
    .update(backupRuns)
    .set({
      ...result,
      status: 'complete',
      finishedAt: now,
      durationMs: sql`greatest(0, round(extract(epoch from (${now}::timestamptz - ${backupRuns.startedAt})) * 1000))::int`,
      error: null,
      nextAttemptAt: null,
      phase: null,
      progressAt: now,
    })
    .where(eq(backupRuns.id, id));
}

/** An attempt failed with more to come: queued again with its reason and when it retries. */
export async function awaitRetry(db: Db, id: string, error: string, nextAttemptAt: Date): Promise<void> {
  await db
    .update(backupRuns)
    .set({ status: 'queued', error, nextAttemptAt, phase: null })
    .where(eq(backupRuns.id, id));
}

export async function failRun(db: Db, id: string, error: string, now: Date): Promise<void> {
  await db
    .update(backupRuns)
    .set({
      status: 'failed',
      error,
      finishedAt: now,
      durationMs: sql`greatest(0, round(extract(epoch from (${now}::timestamptz - coalesce(${backupRuns.startedAt}, ${now}::timestamptz))) * 1000))::int`,
      nextAttemptAt: null,
      phase: null,
    })
    .where(eq(backupRuns.id, id));
}

/** The worker stopped mid-backup: the run waits for its job to be picked up again. */
export async function interruptRun(db: Db, id: string): Promise<void> {
  await db
    .update(backupRuns)
    .set({ status: 'queued', phase: null })
    .where(and(eq(backupRuns.id, id), eq(backupRuns.status, 'running')));
}

/** Marks the admins as told about this run's final failure; false when someone already did. */
export async function claimFailureMail(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(backupRuns)
    .set({ adminsMailedAt: now })
    .where(and(eq(backupRuns.id, id), isNull(backupRuns.adminsMailedAt)))
    .returning({ id: backupRuns.id });
  return rows.length > 0;
}

export async function releaseFailureMail(db: Db, id: string): Promise<void> {
  await db.update(backupRuns).set({ adminsMailedAt: null }).where(eq(backupRuns.id, id));
}

const RECENT_RUNS = 60;

/** The newest runs, with who asked for each. */
export async function recentRuns(db: Db, limit = RECENT_RUNS): Promise<BackupRunView[]> {
  const rows = await db
    .select({ run: backupRuns, requester: users.name })
    .from(backupRuns)
    .leftJoin(users, eq(users.id, backupRuns.requestedBy))
    // Runs queued in the same instant: the later backup (ids sort by time) first, as retention sees them.
    .orderBy(desc(backupRuns.createdAt), desc(backupRuns.backupId))
    .limit(limit);
  return rows.map(({ run, requester }) => presentRun(run, requester));
}

export async function findRunView(db: Db, id: string): Promise<BackupRunView | undefined> {
  const [row] = await db
    .select({ run: backupRuns, requester: users.name })
    .from(backupRuns)
    .leftJoin(users, eq(users.id, backupRuns.requestedBy))
    .where(eq(backupRuns.id, id));
  return row && presentRun(row.run, row.requester);
}

/** The newest failed run with no successful run after it (what the dashboard warns about). */
export async function unresolvedFailure(db: Db): Promise<BackupRunRow | undefined> {
  const lastSuccess = await lastSuccessAt(db);
  const [failed] = await db
    .select()
    .from(backupRuns)
    .where(
      and(eq(backupRuns.status, 'failed'), lastSuccess ? gt(backupRuns.finishedAt, lastSuccess) : undefined),
    )
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1);
  return failed;
}

export async function lastSuccessAt(db: Db): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: backupRuns.finishedAt })
    .from(backupRuns)
    .where(eq(backupRuns.status, 'complete'))
    .orderBy(desc(backupRuns.finishedAt))
    .limit(1);
  return row?.at ?? undefined;
}

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export function presentRun(run: BackupRunRow, requester: string | null = null): BackupRunView {
  return {
    id: run.id,
    trigger: run.trigger,
    status: run.status,
    scheduledFor: run.scheduledFor,
    requestedBy: requester,
    createdAt: run.createdAt.toISOString(),
    startedAt: isoOrNull(run.startedAt),
    finishedAt: isoOrNull(run.finishedAt),
    durationMs: run.durationMs,
    backupId: run.backupId,
    bytes: run.bytes,
    bytesWritten: run.bytesWritten,
    objectsCopied: run.objectsCopied,
    objectsTotal: run.objectsTotal,
    error: run.error,
    attempts: run.attempts,
    maxAttempts: run.maxAttempts,
    nextAttemptAt: isoOrNull(run.nextAttemptAt),
    progress:
      run.status === 'running' && run.phase
        ? {
            phase: run.phase,
            done: run.progressDone ?? 0,
            total: run.progressTotal,
            bytes: run.progressBytes ?? 0,
            at: (run.progressAt ?? run.createdAt).toISOString(),
          }
        : null,
    pruned: run.pruned,
    kept: null,
  };
}
