import { and, desc, eq, inArray, isNotNull, isNull, notInArray, or, sql } from 'drizzle-orm';
import type { MarkedVideo, TraceResult, TraceRun } from '../../contract/trace-runs';
import type { Db } from '../db/client';
import { hasRow } from '../db/has-row';
import { jobs, traceRuns, users, videos, type StoreKind } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import { whyNobody, type TraceFileResult } from './trace-file';
import './trace-job-types';

export type TraceRunRow = typeof traceRuns.$inferSelect;

/**
 * A failed trace is not tried again: the run says why, and the admin may upload again. (A worker that
 * died mid-trace still hands the job to the next one, and an unreachable store only defers it.)
 */
const TRACE_ATTEMPTS = 1;
const ACTIVE = ['queued', 'running'] as const;

/** Adds a run for an uploaded copy and its `forensic.trace` job, in one transaction. */
export async function createTraceRun(
  db: Db,
  input: {
    id: string;
    createdBy: string;
    fileName: string;
    sizeBytes: number;
    store: StoreKind;
    videoId?: string;
    now: Date;
  },
): Promise<TraceRunRow> {
  return db.transaction(async (tx) => {
    const { now, videoId, ...run } = input;
    await tx.insert(traceRuns).values({ ...run, videoId: videoId ?? null, createdAt: now });
    const jobId = await enqueueJob(
      tx,
      'forensic.trace',
      { runId: input.id },
      { maxAttempts: TRACE_ATTEMPTS },
    );
    const [row] = await tx.update(traceRuns).set({ jobId }).where(eq(traceRuns.id, input.id)).returning();
    return row!;
  });
}

/** The job picked the run up: it is running, its progress cleared. Undefined when it no longer waits. */
export async function startTraceRun(db: Db, id: string, now: Date): Promise<TraceRunRow | undefined> {
  const [row] = await db
    .update(traceRuns)
    .set({
      status: 'running',
      progress: 0,
      phase: null,
      startedAt: sql`coalesce(${traceRuns.startedAt}, ${now})`,
    })
    .where(and(eq(traceRuns.id, id), inArray(traceRuns.status, [...ACTIVE])))
    .returning();
  return row;
}

/** What the trace is doing and how far it got (0..1). */
export interface TraceProgress {
  phase: string;
  fraction: number;
}

export async function saveTraceProgress(db: Db, id: string, { phase, fraction }: TraceProgress) {
  await db
    .update(traceRuns)
    .set({ phase, progress: fraction })
    .where(and(eq(traceRuns.id, id), eq(traceRuns.status, 'running')));
}

/** The worker stopped mid-trace: the run waits for its job to be picked up again. */
export async function requeueTraceRun(db: Db, id: string): Promise<void> {
  await db
    .update(traceRuns)
    .set({ status: 'queued', phase: null })
    .where(and(eq(traceRuns.id, id), eq(traceRuns.status, 'running')));
}

/** A trace ended: done with its answer, or failed with why (one line). */
export async function finishTraceRun(
  db: Db,
  id: string,
  end: { result: TraceResult } | { error: string },
  now: Date,
): Promise<void> {
  const done = 'result' in end;
  await db
    .update(traceRuns)
    .set({
      status: done ? 'done' : 'failed',
      result: done ? end.result : null,
      error: done ? null : end.error,
      progress: done ? 1 : sql`${traceRuns.progress}`,
      phase: null,
      finishedAt: now,
    })
    .where(eq(traceRuns.id, id));
}

/** Whether the run still needs its uploaded copy (it is queued or running). */
export async function isTraceActive(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: traceRuns.id })
    .from(traceRuns)
    .where(and(eq(traceRuns.id, id), inArray(traceRuns.status, [...ACTIVE])));
  return Boolean(row);
}

/**
 * Runs still waiting on a job that ended without them (cancelled, or removed by hand): failed, so the
 * screen stops polling them and their copies can go. Answers how many.
 */
export async function failOrphanedTraceRuns(db: Db, now: Date): Promise<number> {
  const orphans = await db
    .select({ id: traceRuns.id })
    .from(traceRuns)
    .leftJoin(jobs, eq(jobs.id, traceRuns.jobId))
    .where(
      and(inArray(traceRuns.status, [...ACTIVE]), or(isNull(jobs.id), notInArray(jobs.status, [...ACTIVE]))),
    );
  const error = 'The trace job ended without finishing: upload the copy again.';
  for (const { id } of orphans) await finishTraceRun(db, id, { error }, now);
  return orphans.length;
}

/** A video a copy can be traced to: ready, with a forensic secret (made when its marked ladder starts). */
const isMarked = and(isNotNull(videos.forensicSecret), eq(videos.status, 'ready'));

export async function markedVideoList(db: Db): Promise<MarkedVideo[]> {
  return db
    .select({ id: videos.id, title: videos.title })
    .from(videos)
    .where(isMarked)
    .orderBy(videos.title, videos.id);
}

/** Whether any video can have a copy traced to it. */
export async function anyMarkedVideo(db: Db): Promise<boolean> {
  return hasRow(db, videos, isMarked);
}

/** Whether the video `id` exists and a copy can be traced to it. */
export async function markedVideoState(db: Db, id: string): Promise<'missing' | 'unmarked' | 'marked'> {
  const [row] = await db
    .select({ marked: sql<boolean>`${isMarked}` })
    .from(videos)
    .where(eq(videos.id, id));
  return !row ? 'missing' : row.marked ? 'marked' : 'unmarked';
}

const RECENT_RUNS = 30;

/** Runs with who uploaded them and the video they picked, newest first (or the one asked for). */
function runViews(db: Db) {
  return db
    .select({ run: traceRuns, admin: users.name, video: videos.title })
    .from(traceRuns)
    .leftJoin(users, eq(users.id, traceRuns.createdBy))
    .leftJoin(videos, eq(videos.id, traceRuns.videoId));
}

export async function recentTraceRuns(db: Db, limit = RECENT_RUNS): Promise<TraceRun[]> {
  const rows = await runViews(db).orderBy(desc(traceRuns.createdAt), desc(traceRuns.id)).limit(limit);
  return rows.map((r) => presentTraceRun(r.run, r.admin, r.video));
}

export async function findTraceRunView(db: Db, id: string): Promise<TraceRun | undefined> {
  const [row] = await runViews(db).where(eq(traceRuns.id, id));
  return row && presentTraceRun(row.run, row.admin, row.video);
}

const isoOrNull = (d: Date | null) => d?.toISOString() ?? null;

export function presentTraceRun(run: TraceRunRow, admin: string | null, videoTitle: string | null): TraceRun {
  return {
    id: run.id,
    createdAt: run.createdAt.toISOString(),
    createdBy: admin,
    fileName: run.fileName,
    sizeBytes: run.sizeBytes,
    status: run.status,
    progress: run.progress,
    phase: run.phase,
    video: run.videoId ? { id: run.videoId, title: videoTitle ?? '' } : null,
    startedAt: isoOrNull(run.startedAt),
    finishedAt: isoOrNull(run.finishedAt),
    result: run.result as TraceResult | null,
    error: run.error,
  };
}

/** The trace's answer as it is kept and served: dates as ISO text, "nobody can be named" as a null threshold. */
export function traceResultOf(result: TraceFileResult): TraceResult {
  const reason = whyNobody(result) ?? null;
  if (result.kind === 'not-a-video') return { kind: result.kind, reason };
  if (result.kind !== 'matched') return { kind: result.kind, videoId: result.videoId ?? null, reason };
  return {
    ...result,
    threshold: Number.isFinite(result.threshold) ? result.threshold : null,
    accused: result.accused.map((a) => ({ ...a, startedAt: a.startedAt.toISOString() })),
    reason,
  };
}
