import { eq, inArray } from 'drizzle-orm';
import type { LiveRecording, RecordingStep } from '../../contract/live';
import type { Db } from '../db/client';
import { jobs, liveClasses } from '../db/schema';
import { oneLine } from '../jobs/run-progress';
import type { LiveClassRow } from './presenter';

/** What the `live.recording` job reports as it goes: its step, and within it the part of how many. */
export interface RecordingProgress {
  step: RecordingStep;
  part?: number;
  parts?: number;
}

/** The job's step on the class's row, where the staff's answers read it (runWithProgress saves it). */
export async function saveRecordingProgress(db: Db, classId: string, progress: RecordingProgress | null) {
  await db
    .update(liveClasses)
    .set({
      recordingStep: progress?.step ?? null,
      recordingPart: progress?.part ?? null,
      recordingParts: progress?.parts ?? null,
    })
    .where(eq(liveClasses.id, classId));
}

type RecordingJob = Pick<typeof jobs.$inferSelect, 'id' | 'status' | 'attempts' | 'lastError'>;

/** The recording jobs of `rows`, by id: one query for a whole list. */
export async function recordingJobsOf(db: Db, rows: readonly LiveClassRow[]) {
  const ids = rows.flatMap((r) => (r.recordingJobId ? [r.recordingJobId] : []));
  const found = ids.length
    ? await db
        .select({ id: jobs.id, status: jobs.status, attempts: jobs.attempts, lastError: jobs.lastError })
        .from(jobs)
        .where(inArray(jobs.id, ids))
    : [];
  return new Map<string, RecordingJob>(found.map((j) => [j.id, j]));
}

/**
 * Where the recording's packaging is: the state is the job's own (the queue's row: queued, running,
 * done, failed with its last error), the step the one the job saved on the class. Null for a class
 * with no recording job (not ended, or never streamed).
 */
export function presentRecording(
  row: LiveClassRow,
  jobsById: ReadonlyMap<string, RecordingJob>,
): LiveRecording | null {
  if (!row.recordingJobId) return null;
  const job = jobsById.get(row.recordingJobId);
  if (!job) return { state: 'failed', message: 'The packaging job is gone.' };
  switch (job.status) {
    case 'done':
      return { state: 'done' };
    case 'failed':
      return { state: 'failed', message: job.lastError ? oneLine(job.lastError) : 'The packaging failed.' };
    case 'cancelled':
      return { state: 'failed', message: 'The packaging was cancelled.' };
    case 'running':
      return {
        state: 'packaging',
        ...(row.recordingStep && { step: row.recordingStep as RecordingStep }),
        ...(row.recordingPart != null && row.recordingParts != null
          ? { part: row.recordingPart, parts: row.recordingParts }
          : {}),
      };
    case 'queued':
      // Queued again after a failed attempt: the staff see why while it waits for the next one.
      return job.attempts > 0 && job.lastError
        ? { state: 'waiting', message: oneLine(job.lastError) }
        : { state: 'waiting' };
  }
}
