import { and, asc, count, eq, sql } from 'drizzle-orm';
import {
  checkpointMessages,
  checkpointProblem,
  MAX_CHECKPOINTS_PER_VIDEO,
  type CheckpointBody,
  type CheckpointPatchBody,
  type StaffCheckpoint,
  type StudentCheckpoint,
} from '../../contract/checkpoints';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import { checkpoints, checkpointStates } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { checkpointsWithStats } from '../analytics/checkpoint-stats';

export type CheckpointRow = typeof checkpoints.$inferSelect;

export const presentStaff = (row: CheckpointRow): StaffCheckpoint => ({
  _id: row.id,
  videoId: row.videoId,
  t: row.t,
  kind: row.kind,
  prompt: row.prompt,
  choices: row.choices,
  answers: row.answers,
  required: row.required,
  rewindTo: row.rewindTo,
});

/** A moment inside the video (a video of unknown length takes any moment the schema allows). */
function checkMoments(c: { t: number; rewindTo?: number | null }, durationSeconds: number): void {
  const outside = (t: number) => durationSeconds > 0 && t > durationSeconds;
  if (outside(c.t) || (c.rewindTo != null && outside(c.rewindTo)))
    throw badRequest(checkpointMessages.timeOutside);
}

export async function checkpointById(db: Db, checkpointId: string): Promise<CheckpointRow> {
  if (!isUuid(checkpointId)) throw notFound(checkpointMessages.checkpointNotFound);
  const [row] = await db.select().from(checkpoints).where(eq(checkpoints.id, checkpointId)).limit(1);
  if (!row) throw notFound(checkpointMessages.checkpointNotFound);
  return row;
}

export async function staffCheckpoints(db: Db, videoId: string): Promise<StaffCheckpoint[]> {
  return (await checkpointsWithStats(db, videoId)).map(({ row, stats }) => ({ ...presentStaff(row), stats }));
}

export async function addCheckpoint(
  db: Db,
  videoId: string,
  durationSeconds: number,
  body: CheckpointBody,
  now: Date,
): Promise<StaffCheckpoint> {
  checkMoments(body, durationSeconds);
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(checkpoints)
    .where(eq(checkpoints.videoId, videoId));
  if (n >= MAX_CHECKPOINTS_PER_VIDEO) throw conflict(checkpointMessages.tooManyCheckpoints);
  const [row] = await db
    .insert(checkpoints)
    .values({
      videoId,
      t: body.t,
      kind: body.kind,
      prompt: body.prompt,
      choices: body.kind === 'output' ? [] : (body.choices ?? []),
      answers: body.answers,
      required: body.required,
      rewindTo: body.rewindTo ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return presentStaff(row!);
}

/** The fields sent replace the stored ones; the result is checked whole, as a new one would be. */
export async function updateCheckpoint(
  db: Db,
  row: CheckpointRow,
  durationSeconds: number,
  patch: CheckpointPatchBody,
  now: Date,
): Promise<StaffCheckpoint> {
  const next = {
    t: patch.t ?? row.t,
    kind: patch.kind ?? row.kind,
    prompt: patch.prompt ?? row.prompt,
    choices: patch.choices ?? row.choices,
    answers: patch.answers ?? row.answers,
    required: patch.required ?? row.required,
    rewindTo: patch.rewindTo === undefined ? row.rewindTo : patch.rewindTo,
  };
  if (next.kind === 'output' && patch.kind === 'output' && patch.choices === undefined) next.choices = [];
  const problem = checkpointProblem(next);
  if (problem) throw badRequest(problem);
  checkMoments(next, durationSeconds);
  const [saved] = await db
    .update(checkpoints)
    .set({ ...next, updatedAt: now })
    .where(eq(checkpoints.id, row.id))
    .returning();
  return presentStaff(saved!);
}

export async function deleteCheckpoint(db: Db, checkpointId: string): Promise<void> {
  await db.delete(checkpoints).where(eq(checkpoints.id, checkpointId));
}

/** Joins a checkpoint to this student's state of it (none yet: a left join's nulls). */
const stateOf = (studentId: string) =>
  and(eq(checkpointStates.checkpointId, checkpoints.id), eq(checkpointStates.studentId, studentId));

/** A video's checkpoints in order, each with this student's state of it (null: none yet). */
function withStates(db: Db, videoId: string, studentId: string) {
  return db
    .select({ checkpoint: checkpoints, state: checkpointStates })
    .from(checkpoints)
    .leftJoin(checkpointStates, stateOf(studentId))
    .where(eq(checkpoints.videoId, videoId))
    .orderBy(asc(checkpoints.t), asc(checkpoints.createdAt));
}

/**
 * A video's checkpoints as a viewer sees them: prompt and choices, never the answers nor the
 * rewatch moment. Staff (`passedForAll`) preview and are never held: every one reads as passed.
 */
export async function viewerCheckpoints(
  db: Db,
  videoId: string,
  studentId: string,
  passedForAll: boolean,
): Promise<StudentCheckpoint[]> {
  return (await withStates(db, videoId, studentId)).map(({ checkpoint: c, state }) => ({
    _id: c.id,
    t: c.t,
    kind: c.kind,
    prompt: c.prompt,
    choices: c.choices,
    required: c.required,
    passed: passedForAll || Boolean(state?.passedAt),
  }));
}

/** Checkpoints of a video with the student's standing: what the hold and the progress gate read. */
export interface Standing {
  id: string;
  t: number;
  required: boolean;
  passed: boolean;
  rewatchFrom: number | null;
  rewatchTo: number | null;
  rewatched: [number, number][];
}

export async function standingsOf(db: Db, studentId: string, videoId: string): Promise<Standing[]> {
  return (await withStates(db, videoId, studentId)).map(({ checkpoint: c, state }) => ({
    id: c.id,
    t: c.t,
    required: c.required,
    passed: Boolean(state?.passedAt),
    rewatchFrom: state?.rewatchFrom ?? null,
    rewatchTo: state?.rewatchTo ?? null,
    rewatched: state?.rewatched ?? [],
  }));
}

/** The second a student is held at: the first required checkpoint they have not passed (null: none). */
export const holdOf = (standings: readonly Standing[]): number | null =>
  standings.find((s) => s.required && !s.passed)?.t ?? null;

/** `holdOf` in one query, for the key route. */
export async function holdSecond(db: Db, studentId: string, videoId: string): Promise<number | null> {
  const [row] = await db
    .select({ t: sql<number | null>`min(${checkpoints.t})` })
    .from(checkpoints)
    .leftJoin(checkpointStates, stateOf(studentId))
    .where(
      and(
        eq(checkpoints.videoId, videoId),
        eq(checkpoints.required, true),
        sql`${checkpointStates.passedAt} is null`,
      ),
    );
  return row?.t === null || row?.t === undefined ? null : Number(row.t);
}
