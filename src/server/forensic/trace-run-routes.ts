import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { MAX_TRACE_UPLOAD_BYTES, traceRunMessages } from '../../contract/trace-runs';
import type { RouteOptions } from '../http/route-options';
import { isUuid } from '../db/ids';
import { HttpError, notFound, tooManyRequests } from '../errors';
import { registerRoutes } from '../http/route-table';
import { findTraceRunView, markedVideoList, recentTraceRuns } from './trace-runs';
import { startTraceUpload } from './trace-upload';

/** Uploads per admin in 10 minutes: each is minutes of decoding and up to 2 GB of disk while it waits. */
const UPLOADS_PER_ADMIN = 30;
/** Room for the multipart framing and the small fields around the file. */
const FRAMING_BYTES = 1024 * 1024;

/**
 * "Trace a downloaded copy" on the admins' trace screen: upload, the recent runs, one run's progress.
 * `wakeJobs` starts a queued trace in this process now rather than at the runner's next poll.
 */
export const traceRunRoutes: FastifyPluginAsync<RouteOptions & { wakeJobs?: () => void }> = async (
  app,
  { ctx, auth, wakeJobs },
) => {
  await app.register(multipart, {
    // A copy past the limit is noticed by the route (413 after reading it), not thrown mid-stream.
    throwFileSizeLimit: false,
    limits: { fileSize: MAX_TRACE_UPLOAD_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
  });

  registerRoutes(app, auth, {
    'POST /api/admin/trace-runs': async ({ session: { user }, request }) => {
      const hit = await ctx.rateCounter.hit(`trace-upload:${user.id}`, 10 * 60_000);
      if (hit.count > UPLOADS_PER_ADMIN)
        throw tooManyRequests(traceRunMessages.tooMany, Math.ceil(hit.resetInMs / 1000));
      // A body that says it is too large is refused before a byte of it is read, and its connection closed.
      if (Number(request.headers['content-length']) > MAX_TRACE_UPLOAD_BYTES + FRAMING_BYTES)
        throw new HttpError(413, traceRunMessages.tooLarge, {}, { connection: 'close' });
      const run = await startTraceUpload(ctx, user, request);
      wakeJobs?.();
      return { message: traceRunMessages.queued, run };
    },
    'GET /api/admin/trace-runs': async () => ({
      runs: await recentTraceRuns(ctx.db),
      markedVideos: await markedVideoList(ctx.db),
      marksOn: ctx.config.forensicMarks,
      maxBytes: MAX_TRACE_UPLOAD_BYTES,
    }),
    'GET /api/admin/trace-runs/:runId': async ({ params }) => {
      const run = isUuid(params.runId) ? await findTraceRunView(ctx.db, params.runId) : undefined;
      if (!run) throw notFound(traceRunMessages.runNotFound);
      return { run };
    },
  });
};
