import { and, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { hasRow } from '../db/has-row';
import { jobs } from '../db/schema';
import type { JobPayloads, JobType } from './types';

export type Job = typeof jobs.$inferSelect;

export interface EnqueueOptions {
  priority?: number;
  runAt?: Date;
  maxAttempts?: number;
}

/** The runners of this process, told of each job enqueued here (`onEnqueue`). */
const enqueueListeners = new Set<() => void>();

/**
 * Calls `listener` after every enqueue in this process; answers the unsubscribe. Inside a transaction
 * it is called before the commit: on the embedded database a query waits for the transaction, so a
 * runner's claim still finds the job.
 */
export function onEnqueue(listener: () => void): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

/** Adds a job; pass a transaction as `db` to enqueue atomically with the change that needs it. */
export async function enqueueJob<T extends JobType>(
  db: Db,
  type: T,
  payload: JobPayloads[T],
  options: EnqueueOptions = {},
): Promise<string> {
  const [row] = await db
    .insert(jobs)
    .values({
      type,
      payload: payload as Record<string, unknown>,
      priority: options.priority ?? 0,
      // "Due now" whatever clock the worker runs on (tests use a fake one); FIFO comes from created_at.
      runAt: options.runAt ?? new Date(0),
      maxAttempts: options.maxAttempts ?? 3,
    })
    .returning({ id: jobs.id });
  for (const listener of enqueueListeners) listener();
  return row!.id;
}

/**
 * Claims the next due job for `worker`. A running job whose lock is older than `staleMs` belongs to a
 * worker that died: it is claimed again (its attempt counted). Types in `excludeTypes` are skipped
 * (their lane is full in this worker).
 */
export async function claimJob(
  db: Db,
  worker: string,
  now: Date,
  staleMs: number,
  excludeTypes: readonly string[] = [],
): Promise<Job | undefined> {
  const staleBefore = new Date(now.getTime() - staleMs);
  const claimable = or(
    and(eq(jobs.status, 'queued'), sql`${jobs.runAt} <= ${now}`),
    and(eq(jobs.status, 'running'), lt(jobs.lockedAt, staleBefore)),
  );
  const next = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(claimable, excludeTypes.length ? notInArray(jobs.type, [...excludeTypes]) : undefined))
    .orderBy(sql`${jobs.priority} desc`, jobs.runAt, jobs.createdAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [job] = await db
    .update(jobs)
    .set({
      status: 'running',
      lockedAt: now,
      lockedBy: worker,
      attempts: sql`${jobs.attempts} + 1`,
      updatedAt: now,
    })
    // `id = (subquery)` is a scalar subquery, run once: with `IN (subquery)` PostgreSQL may run the
    // LIMIT 1 subquery once per row it scans and claim several jobs while launching only one.
    // `claimable` is checked again on the row itself: a claim that waited on another's lock sees the
    // job running (PostgreSQL re-evaluates this on the committed row) and claims nothing.
    .where(and(sql`${jobs.id} = (${next})`, claimable))
    .returning();
  return job;
}

/** Keeps a long job's lock fresh; returns false when the job was cancelled meanwhile. */
export async function heartbeat(db: Db, jobId: string, worker: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.lockedBy, worker), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

export async function completeJob(db: Db, jobId: string, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', lockedAt: null, lockedBy: null, updatedAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, 'running')));
}

/** A dependency's outage is waited out: 5 s, 10 s, 20 s … at most this long between tries. */
const MAX_DEFERRAL_MS = 5 * 60_000;

/**
 * Records a failure: retried later with backoff (or after `retryAfterMs`) while attempts remain, otherwise `failed`. A
 * `deferred` failure (a dependency was away) gives the attempt back and is always retried.
 */
export async function failJob(
  db: Db,
  job: Job,
  error: string,
  now: Date,
  permanent: boolean,
  deferred = false,
  retryAfterMs?: number,
): Promise<'retry' | 'failed' | 'deferred'> {
  if (deferred && !permanent) {
    const delayMs = Math.min(MAX_DEFERRAL_MS, 5_000 * 2 ** Math.min(job.deferrals, 16));
    await db
      .update(jobs)
      .set({
        status: 'queued',
        attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
        deferrals: sql`${jobs.deferrals} + 1`,
        lastError: error.slice(0, 2000),
        lockedAt: null,
        lockedBy: null,
        runAt: new Date(now.getTime() + delayMs),
        updatedAt: now,
      })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')));
    return 'deferred';
  }
  const giveUp = permanent || job.attempts >= job.maxAttempts;
  const backoffMs = retryAfterMs ?? 5_000 * 2 ** Math.max(0, job.attempts - 1);
  await db
    .update(jobs)
    .set({
      status: giveUp ? 'failed' : 'queued',
      lastError: error.slice(0, 2000),
      lockedAt: null,
      lockedBy: null,
      runAt: giveUp ? job.runAt : new Date(now.getTime() + backoffMs),
      updatedAt: now,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')));
  return giveUp ? 'failed' : 'retry';
}

/** Cancels queued or running jobs matching `type` whose payload contains `match`. */
export async function cancelJobs(
  db: Db,
  type: JobType,
  match: Record<string, unknown>,
  now: Date,
): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ status: 'cancelled', updatedAt: now })
    .where(
      and(
        eq(jobs.type, type),
        inArray(jobs.status, ['queued', 'running']),
        sql`${jobs.payload} @> ${JSON.stringify(match)}::jsonb`,
      ),
    )
    .returning({ id: jobs.id });
  return rows.length;
}

/** Hands a running job back to the queue untouched (this worker is shutting down). */
export async function releaseJob(db: Db, jobId: string, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'queued', lockedAt: null, lockedBy: null, runAt: now, updatedAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, 'running')));
}

/** Puts every running job back in the queue (embedded database: only this process can have run them). */
export async function requeueRunningJobs(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ status: 'queued', lockedAt: null, lockedBy: null, runAt: now, updatedAt: now })
    .where(eq(jobs.status, 'running'))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Whether a job of `type` is waiting or running (used to schedule housekeeping once). */
export async function hasPendingJob(db: Db, type: JobType): Promise<boolean> {
  return hasRow(db, jobs, and(eq(jobs.type, type), inArray(jobs.status, ['queued', 'running'])));
}
