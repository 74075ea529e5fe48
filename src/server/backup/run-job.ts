import type { AppContext } from '../context';
import { pruneBackups, runBackup, type BackupProgress, type BackupSummary } from './index';
import { PermanentJobError, type JobHandler } from '../jobs/types';
import { mailAdminsAboutFailure } from './failure-mail';
import {
  awaitRetry,
  completeRun,
  failRun,
  interruptRun,
  retryDelayMs,
  saveProgress,
  startAttempt,
} from './runs';
import './run-job-type';

/** Progress is written to the run's row at most this often (and at each new phase). */
const PROGRESS_EVERY_MS = 1_000;

/** One line a person can act on: the first line of the message, without a stack. */
export const oneLine = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').trim().slice(0, 500) || 'unknown error';
};

/** Saves the engine's progress without a write per object: throttled, in order, never overlapping. */
function progressWriter(ctx: AppContext, runId: string) {
  let lastPhase = '';
  let lastAt = 0;
  let pending: BackupProgress | undefined;
  let chain = Promise.resolve();
  const write = (p: BackupProgress) => {
    const copy = { phase: p.phase, done: p.done, total: p.total, bytes: p.bytes };
    chain = chain
      .then(() => saveProgress(ctx.db, runId, copy, ctx.clock.now()))
      .catch((error: unknown) =>
        ctx.logger.warn({ err: error, run: runId }, 'could not save backup progress'),
      );
  };
  return {
    onProgress(p: BackupProgress) {
      const now = Date.now();
      if (p.phase !== lastPhase || now - lastAt >= PROGRESS_EVERY_MS) {
        lastPhase = p.phase;
        lastAt = now;
        pending = undefined;
        write(p);
      } else pending = { ...p };
    },
    async flush() {
      if (pending) write(pending);
      pending = undefined;
      await chain;
    },
  };
}

/**
 * Job handler `backup.run`: one attempt of a run. A failed attempt with attempts left waits
 * (5, 15, 45 minutes) and says so on the run; the last one fails the run and, for the schedule,
 * mails every admin once.
 */
export function backupRunHandler(ctx: AppContext): JobHandler<'backup.run'> {
  return async ({ runId }, { attempt, signal, log }) => {
    const run = await startAttempt(ctx.db, runId, attempt, ctx.clock.now());
    if (!run) {
      log.info({ run: runId }, 'backup run is no longer active; nothing to do');
      return;
    }
    const progress = progressWriter(ctx, runId);
    let summary: BackupSummary;
    try {
      summary = await runBackup(ctx, { onProgress: (p) => progress.onProgress(p), signal });
      await progress.flush();
    } catch (error) {
      await progress.flush();
      if (signal.aborted) {
        // The worker is stopping (or the job was cancelled): the job is handed back and retried.
        await interruptRun(ctx.db, runId);
        throw error;
      }
      const reason = oneLine(error);
      const now = ctx.clock.now();
      if (attempt < run.maxAttempts) {
        const delay = retryDelayMs(attempt);
        await awaitRetry(ctx.db, runId, reason, new Date(now.getTime() + delay));
        log.warn({ run: runId, attempt, reason }, 'backup attempt failed; it will be retried');
        throw Object.assign(new Error(reason), { retryAfterMs: delay });
      }
      await failRun(ctx.db, runId, reason, now);
      log.error({ run: runId, attempt, reason }, 'backup failed');
      if (run.trigger === 'schedule')
        await mailAdminsAboutFailure(ctx, { ...run, attempts: attempt }, reason);
      throw new PermanentJobError(reason);
    }
    // Retention follows a successful backup only; its failure leaves the backup complete.
    let pruned: number | null = null;
    try {
      await saveProgress(
        ctx.db,
        runId,
        { phase: 'prune', done: 0, total: 0, bytes: summary.bytes },
        ctx.clock.now(),
      );
      pruned = (await pruneBackups(ctx, { keep: ctx.config.backupKeep })).removedBackups.length;
    } catch (error) {
      log.warn({ err: error, run: runId }, 'pruning old backups failed; the next backup tries again');
    }
    await completeRun(
      ctx.db,
      runId,
      {
        backupId: summary.id,
        bytes: summary.totalBytes,
        bytesWritten: summary.bytes,
        objectsCopied: summary.objectsCopied,
        objectsTotal: summary.objectsTotal,
        pruned,
      },
      ctx.clock.now(),
    );
    log.info({ run: runId, backup: summary.id, bytes: summary.bytes }, 'backup complete');
  };
}
