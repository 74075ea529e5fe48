import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { captionMessages } from '../../contract/captions';
import { mediaMessages } from '../../contract/media';
import { routes } from '../../contract/routes';
import { MAX_CAPTION_BYTES, toWebVtt } from '../../contract/webvtt';
import type { RouteOptions } from '../http/route-options';
import type { SessionUser } from '../accounts/sessions';
import { isUuid } from '../db/ids';
import { badRequest, notFound, tooLarge, parseInput } from '../errors';
import { registerRoutes } from '../http/route-table';
import { requireOpenTo } from '../http/opening-gate';
import { indexCaptionTrack } from '../search/index-store';
import { languageName, retireSpeech, speechDraft } from '../search/speech-draft';
import { requireWatch } from '../videos/access';
import { captionFile, deleteCaptions, listCaptions, saveCaptions, videoDuration } from './captions';

const uploadFields = routes['POST /api/admin/videos/:videoId/captions'].multipart;

/** Reads the multipart `language`, `label` and `file` of an upload; the file as UTF-8 text. */
async function readUpload(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let text: string | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    const bytes = await part.toBuffer();
    if (part.fieldname !== 'file' || text !== undefined) continue;
    if (part.file.truncated) throw tooLarge(captionMessages.tooLarge);
    text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (text.includes('\uFFFD') || text.includes('\u0000')) throw badRequest(captionMessages.fileNotText);
  }
  const parsed = parseInput(uploadFields, fields);
  if (text === undefined) throw badRequest(captionMessages.fileMissing);
  return { fields: parsed, text };
}

/** Caption tracks: admins and their courses' instructors manage them; a viewer reads them with the access of the video. */
export const captionRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: MAX_CAPTION_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
  });

  const videoIdOf = (videoId: string) => {
    if (!isUuid(videoId)) throw notFound(mediaMessages.videoNotFound);
    return videoId;
  };

  /** The video's own access rule (the one its playlist answers by), opening hours included. */
  async function requirePlayback(user: SessionUser, videoId: string) {
    requireOpenTo(user, ctx.clock.now(), ctx.config);
    await requireWatch(ctx, user, videoIdOf(videoId));
  }

  /** The video's draft from machine speech (a 404 for an unknown video), or null when it has none. */
  async function draftOf(videoId: string) {
    const duration = await videoDuration(ctx.db, videoIdOf(videoId));
    return speechDraft(ctx.db, videoId, duration);
  }

  registerRoutes(app, auth, {
    // The admin routes' video is checked by their scope (an unknown one 404, another course's 403)
    // before the handler, so before an upload is read.
    'GET /api/admin/videos/:videoId/captions': async ({ params }) => ({
      captions: await listCaptions(ctx.db, params.videoId),
    }),
    'POST /api/admin/videos/:videoId/captions': async ({ params: { videoId }, request }) => {
      const { fields, text } = await readUpload(request);
      const caption = await saveCaptions(ctx.db, videoId, fields, text, ctx.clock.now());
      // Search finds the new cues at once (docs/SEARCH.md).
      const cues = await indexCaptionTrack(ctx.db, videoId, caption.language, ctx.clock.now());
      ctx.metrics.searchEntries.inc({ source: 'captions' }, cues);
      return { message: captionMessages.saved, caption };
    },
    'DELETE /api/admin/videos/:videoId/captions/:language': async ({ params }) => {
      await deleteCaptions(ctx.db, params.videoId, params.language);
      await indexCaptionTrack(ctx.db, params.videoId, params.language, ctx.clock.now());
      return { message: captionMessages.deleted };
    },
    'GET /api/videos/:videoId/captions': async ({ session, params }) => {
      await requirePlayback(session.user, params.videoId);
      return { captions: await listCaptions(ctx.db, params.videoId) };
    },
    'GET /api/videos/:videoId/captions/:language': async ({ session, params, reply }) => {
      await requirePlayback(session.user, params.videoId);
      const vtt = await captionFile(ctx.db, params.videoId, params.language);
      return reply.type('text/vtt; charset=utf-8').header('cache-control', 'private, no-cache').send(vtt);
    },
    // The draft caption track from machine speech (docs/SEARCH.md).
    'GET /api/admin/videos/:videoId/captions/speech-draft': async ({ params, query, reply }) => {
      const draft = await draftOf(params.videoId);
      if (query.format === 'json')
        return { draft: draft && { cues: draft.cues.length, updatedAt: draft.updatedAt.toISOString() } };
      if (!draft) throw notFound(captionMessages.speechDraftNone);
      return reply
        .type('text/vtt; charset=utf-8')
        .header('content-disposition', `attachment; filename="speech-draft-${params.videoId}.vtt"`)
        .header('cache-control', 'no-store')
        .send(toWebVtt(draft.cues));
    },
    'POST /api/admin/videos/:videoId/captions/speech-draft/publish': async ({ params, body }) => {
      const videoId = params.videoId;
      const draft = await draftOf(videoId);
      if (!draft) throw notFound(captionMessages.speechDraftNone);
      // Saved and indexed as an uploaded track is (the upload's own checks and writer).
      const fields = { language: body.language, label: body.label ?? languageName(body.language) };
      const caption = await saveCaptions(ctx.db, videoId, fields, toWebVtt(draft.cues), ctx.clock.now());
      const cues = await indexCaptionTrack(ctx.db, videoId, caption.language, ctx.clock.now());
      ctx.metrics.searchEntries.inc({ source: 'captions' }, cues);
      await retireSpeech(ctx.db, videoId, ctx.clock.now());
      return { message: captionMessages.speechDraftPublished, caption };
    },
  });
};
