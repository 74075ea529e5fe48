import type { AppContext } from '../context';
import type { JobHandler } from '../jobs/types';
import { mediaKeys, UUID_PATTERN } from '../storage';
import { failOrphanedTraceRuns, isTraceActive } from './trace-runs';

/** An uploaded copy no trace waits for is deleted once it is this old (a crash left it behind). */
export const TRACE_FILE_MAX_AGE_MS = 24 * 60 * 60_000;

/**
 * Job `forensic.purge-trace-files` (hourly): the trace job deletes its copy when it ends; this
 * deletes what a crash left behind for a day, in every store, unless its run still waits for it,
 * and first fails the runs whose job ended without them.
 */
export function purgeTraceFilesHandler(ctx: AppContext): JobHandler<'forensic.purge-trace-files'> {
  return async (_payload, { log }) => {
    const orphans = await failOrphanedTraceRuns(ctx.db, ctx.clock.now());
    // Store times are wall-clock times: compared with the wall clock.
    const before = Date.now() - TRACE_FILE_MAX_AGE_MS;
    let removed = 0;
    for (const store of [ctx.media.local, ...(ctx.media.s3 ? [ctx.media.s3] : [])]) {
      for (const object of await store.list(mediaKeys.traceUploads)) {
        if (object.modifiedAt.getTime() > before) continue;
        const runId = object.key.slice(mediaKeys.traceUploads.length);
        if (UUID_PATTERN.test(runId) && (await isTraceActive(ctx.db, runId))) continue;
        await store.delete(object.key);
        removed++;
      }
    }
    if (orphans || removed) log.info({ orphans, removed }, 'purged traced copies left behind');
  };
}
