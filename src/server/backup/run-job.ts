import type { AppContext } from '../context';
import { pruneBackups, runBackup, type BackupProgress } from './index';
import { oneLine, runWithProgress } from '../jobs/run-progress';
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
    const outcome = await runWithProgress(
      {
        signal,
        save: (p: BackupProgress) => saveProgress(ctx.db, runId, p, ctx.clock.now()),
        stepOf: (p) => p.phase,
        onSaveError: (error) => ctx.logger.warn({ err: error, run: runId }, 'could not save backup progress'),
        // The worker is stopping (or the job was cancelled): the job is handed back and retried.
        interrupt: () => interruptRun(ctx.db, runId),
      },
      (onProgress) => runBackup(ctx, { onProgress, signal }),
    );
    if (!outcome.ok) {
      const reason = oneLine(outcome.error);
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
    const summary = outcome.value;
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
