import type { AppContext } from '../context';
import { oneLine, runWithProgress } from '../jobs/run-progress';
import { isRetryLater, PermanentJobError, type JobHandler } from '../jobs/types';
import { mediaKeys } from '../storage';
import { traceFile, type TraceFileResult } from './trace-file';
import {
  finishTraceRun,
  requeueTraceRun,
  saveTraceProgress,
  startTraceRun,
  traceResultOf,
  type TraceProgress,
  type TraceRunRow,
} from './trace-runs';

/** The uploaded copy, as a file ffmpeg reads (the local store's own file, or a scratch copy of the object). */
async function traceUpload(
  ctx: AppContext,
  run: TraceRunRow,
  signal: AbortSignal,
  onProgress: (p: TraceProgress) => void,
): Promise<TraceFileResult> {
  const store = ctx.media.of(run.store);
  const key = mediaKeys.traceUpload(run.id);
  if (!(await store.head(key))) throw new PermanentJobError('The uploaded file is gone: upload it again.');
  const scratch = `trace-${run.id}`;
  await ctx.media.scratch.ensure();
  try {
    const file = await store.fetchToFile(key, ctx.media.scratch.path(scratch));
    return await traceFile(ctx, file, {
      videoId: run.videoId ?? undefined,
      signal,
      label: run.fileName,
      onProgress: (phase, fraction) => onProgress({ phase, fraction }),
    });
  } finally {
    await ctx.media.scratch.remove(scratch);
  }
}

/**
 * Job handler `forensic.trace`: traces the copy an admin uploaded for a `trace_runs` row, its
 * progress saved to the row as it decodes, then keeps the answer (or why it failed) and deletes the
 * copy: a leaked lecture is kept no longer than its trace takes. A stopped worker or an unreachable
 * store leaves the copy for the job's next go.
 */
export function traceRunHandler(ctx: AppContext): JobHandler<'forensic.trace'> {
  return async ({ runId }, { signal, log }) => {
    const run = await startTraceRun(ctx.db, runId, ctx.clock.now());
    if (!run) {
      log.info({ run: runId }, 'trace run is no longer waiting; nothing to do');
      return;
    }
    const outcome = await runWithProgress(
      {
        signal,
        save: (p: TraceProgress) => saveTraceProgress(ctx.db, runId, p),
        stepOf: (p) => p.phase,
        onSaveError: (error) => log.warn({ err: error, run: runId }, 'could not save trace progress'),
        interrupt: () => requeueTraceRun(ctx.db, runId),
      },
      (onProgress) => traceUpload(ctx, run, signal, onProgress),
    );
    if (!outcome.ok && isRetryLater(outcome.error)) {
      await requeueTraceRun(ctx.db, runId);
      throw outcome.error;
    }
    const end = outcome.ok ? { result: traceResultOf(outcome.value) } : { error: oneLine(outcome.error) };
    await finishTraceRun(ctx.db, runId, end, ctx.clock.now());
    await ctx.media
      .of(run.store)
      .delete(mediaKeys.traceUpload(runId))
      .catch((error: unknown) =>
        log.warn({ err: error, run: runId }, 'the traced copy stays until the hourly purge'),
      );
    if ('error' in end) {
      log.warn({ run: runId, reason: end.error }, 'trace failed');
      throw new PermanentJobError(end.error);
    }
    log.info({ run: runId, kind: end.result.kind }, 'trace done');
  };
}
