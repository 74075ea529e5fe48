import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { routes } from '../../contract/routes';
import { traceRunMessages, type TraceRun } from '../../contract/trace-runs';
import type { SessionUser } from '../accounts/sessions';
import type { AppContext } from '../context';
import { isUuid } from '../db/ids';
import { badRequest, notFound, parseInput } from '../errors';
import { createMediaTools } from '../storage/ffmpeg';
import { mediaKeys } from '../storage';
import type { Spooled } from '../storage/scratch';
import { discard, onFilePart } from '../media/upload/upload-store';
import { minimumDecidedSegments } from '../marks/code';
import { MARK_SEGMENT_SECONDS } from '../marks/mark';
import { anyMarkedVideo, createTraceRun, findTraceRunView, markedVideoState } from './trace-runs';

const uploadFields = routes['POST /api/admin/trace-runs'].multipart;

/** The shortest copy that can name anyone: one decided segment per bit, and the code needs this many. */
export const SHORTEST_TRACEABLE_SECONDS = minimumDecidedSegments() * MARK_SEGMENT_SECONDS;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** The file's name as the admin's list shows it: no folders or control characters, at most 200 characters. */
function shownName(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop()!;
  return base.replace(CONTROL, '').trim().slice(0, 200) || 'upload';
}

/** A video the admin named must be one a copy can be traced to. */
async function checkVideo(ctx: AppContext, videoId: string | undefined): Promise<void> {
  if (videoId === undefined) return;
  const state = isUuid(videoId) ? await markedVideoState(ctx.db, videoId) : 'missing';
  if (state === 'missing') throw notFound(traceRunMessages.videoNotFound);
  if (state === 'unmarked') throw badRequest(traceRunMessages.videoNotMarked);
}

/** Multipart `videoId` (optional) and `file`: the copy kept aside in the scratch folder, streamed, never in memory. */
async function receiveCopy(ctx: AppContext, request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let spooled: Spooled | undefined;
  let fileName: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') fields[part.fieldname] = String(part.value);
      else if (part.fieldname !== 'file' || spooled) await discard(part.file);
      else {
        spooled = await onFilePart(part, async () => {
          // Fields sent before the file are checked first: a wrong video costs no upload.
          await checkVideo(ctx, parseInput(uploadFields, fields).videoId);
          return ctx.media.scratch.spool(part.file, traceRunMessages.tooLarge);
        });
        fileName = shownName(part.filename);
      }
    }
    const { videoId } = parseInput(uploadFields, fields);
    if (!spooled) throw badRequest(traceRunMessages.fileMissing);
    return { spooled, fileName: fileName!, videoId };
  } catch (error) {
    await spooled?.remove();
    throw error;
  }
}

/**
 * POST /api/admin/trace-runs: takes an admin's copy of a leaked video, refuses what cannot be traced
 * (no file, not a video, too short, a video that is not marked), puts it in the media store under
 * `trace-uploads/<runId>` and queues its `forensic.trace` job with the run.
 */
export async function startTraceUpload(
  ctx: AppContext,
  user: SessionUser,
  request: FastifyRequest,
): Promise<TraceRun> {
  // Before any byte is read: nothing can be traced while no video is marked.
  if (!(await anyMarkedVideo(ctx.db))) throw badRequest(traceRunMessages.noMarkedVideo);
  const { spooled, fileName, videoId } = await receiveCopy(ctx, request);
  try {
    if (spooled.size === 0) throw badRequest(traceRunMessages.fileEmpty);
    await checkVideo(ctx, videoId);
    const probe = await createMediaTools(ctx.config).probe(spooled.file);
    if (!probe?.video) throw badRequest(traceRunMessages.notAVideo);
    // Unknown (0) when the container does not say: then the trace itself finds out.
    if (probe.durationSeconds > 0 && probe.durationSeconds < SHORTEST_TRACEABLE_SECONDS)
      throw badRequest(traceRunMessages.tooShort(probe.durationSeconds, SHORTEST_TRACEABLE_SECONDS));

    const id = randomUUID();
    const store = ctx.media.current;
    await store.put(mediaKeys.traceUpload(id), { file: spooled.file });
    try {
      await createTraceRun(ctx.db, {
        id,
        createdBy: user.id,
        fileName,
        sizeBytes: spooled.size,
        store: store.kind,
        videoId,
        now: ctx.clock.now(),
      });
    } catch (error) {
      await store.delete(mediaKeys.traceUpload(id)).catch(() => {});
      throw error;
    }
    return (await findTraceRunView(ctx.db, id))!;
  } finally {
    await spooled.remove();
  }
}
