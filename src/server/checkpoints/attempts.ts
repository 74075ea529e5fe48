import { and, eq, sql } from 'drizzle-orm';
import {
  checkpointMessages,
  REWATCH_SLACK_SECONDS,
  type AttemptAnswer,
  type AttemptResponse,
} from '../../contract/checkpoints';
import type { Db } from '../db/client';
import { checkpointAttempts, checkpointStates } from '../db/schema';
import { badRequest, conflict } from '../errors';
import type { CheckpointRow } from './checkpoints';
import { AnswerShapeError, coveredSeconds, judge, mergeInto } from './judge';

/**
 * One answer of a student. Refused (409, not counted) once passed, and after a wrong answer with a
 * rewatch moment until saved progress covers the part from that moment to the checkpoint. Right:
 * passed for good. Wrong with a rewatch moment: that part is to be watched again (rewindTo).
 */
export async function answerCheckpoint(
  db: Db,
  studentId: string,
  checkpoint: CheckpointRow,
  answer: AttemptAnswer,
  now: Date,
): Promise<AttemptResponse & { passed: boolean }> {
  const [state] = await db
    .select()
    .from(checkpointStates)
    .where(and(eq(checkpointStates.checkpointId, checkpoint.id), eq(checkpointStates.studentId, studentId)))
    .limit(1);
  if (state?.passedAt) throw conflict(checkpointMessages.alreadyPassed);
  if (state && state.rewatchFrom !== null && state.rewatchTo !== null) {
    const part = state.rewatchTo - state.rewatchFrom;
    if (coveredSeconds(state.rewatched, state.rewatchFrom, state.rewatchTo) < part - REWATCH_SLACK_SECONDS)
      throw conflict(checkpointMessages.rewatchFirst, { rewindTo: state.rewatchFrom });
  }
  let correct: boolean;
  try {
    correct = judge(checkpoint, answer);
  } catch (error) {
    if (error instanceof AnswerShapeError) throw badRequest(checkpointMessages.answerShape);
    throw error;
  }
  await db
    .insert(checkpointAttempts)
    .values({ checkpointId: checkpoint.id, studentId, answer, correct, createdAt: now });
  const rewindTo = !correct && checkpoint.rewindTo !== null ? checkpoint.rewindTo : undefined;
  if (correct || rewindTo !== undefined || state) {
    const values = {
      checkpointId: checkpoint.id,
      studentId,
      passedAt: correct ? now : null,
      rewatchFrom: rewindTo ?? null,
      rewatchTo: rewindTo === undefined ? null : checkpoint.t,
      rewatched: [] as [number, number][],
      updatedAt: now,
    };
    await db
      .insert(checkpointStates)
      .values(values)
      .onConflictDoUpdate({
        target: [checkpointStates.checkpointId, checkpointStates.studentId],
        set: {
          passedAt: sql`coalesce(${checkpointStates.passedAt}, excluded.passed_at)`,
          rewatchFrom: values.rewatchFrom,
          rewatchTo: values.rewatchTo,
          rewatched: sql`'[]'::jsonb`,
          updatedAt: now,
        },
      });
  }
  return { correct, ...(rewindTo !== undefined && { rewindTo }), passed: correct };
}

/**
 * Progress saved since a wrong answer: the played ranges go into each pending rewatch part, merged
 * under the state's row lock. Two saves of one student at once (the player's periodic one and the
 * pause's, on a busy server) each read the part before writing: merged outside the lock, the later
 * write lost the earlier one's ranges and the student was told to watch again what they had watched.
 */
export async function recordRewatch(
  db: Db,
  studentId: string,
  checkpointIds: readonly string[],
  ranges: readonly (readonly [number, number])[],
  now: Date,
): Promise<void> {
  for (const checkpointId of checkpointIds) {
    const stateOf = and(
      eq(checkpointStates.checkpointId, checkpointId),
      eq(checkpointStates.studentId, studentId),
    );
    await db.transaction(async (tx) => {
      const [state] = await tx.select().from(checkpointStates).where(stateOf).for('update');
      if (!state || state.passedAt || state.rewatchFrom === null || state.rewatchTo === null) return;
      const rewatched = mergeInto(state.rewatched, ranges, state.rewatchFrom, state.rewatchTo);
      if (JSON.stringify(rewatched) === JSON.stringify(state.rewatched)) return;
      await tx.update(checkpointStates).set({ rewatched, updatedAt: now }).where(stateOf);
    });
  }
}
