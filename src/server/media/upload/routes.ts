import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mediaMessages, type UploadOffsetResponse } from '../../../contract/media';
import { routes } from '../../../contract/routes';
import type { SessionUser } from '../../accounts/sessions';
import type { AppContext } from '../../context';
import { badRequest, parseInput } from '../../errors';
import { registerRoutes } from '../../http/route-table';
import type { Auth } from '../../http/auth';
import { formatDuration } from '../../videos/presenter';
import type { MediaTools } from '../../storage/ffmpeg';
import type { Spooled } from '../../storage/scratch';
import { videoDeleteUrl, videoUrl } from '../../videos/stream-urls';
import { finalizeUpload } from './finalize';
import { discard, onFilePart, type OpenChunk, type UploadStore } from './upload-store';

export interface UploadRouteDeps {
  ctx: AppContext;
  auth: Auth;
  store: UploadStore;
  tools: MediaTools;
  /** Tells the job runner in this process that packaging was queued. */
  wakeJobs: () => void;
}

/** Largest single chunk; the client sends 5 MiB (UPLOAD_CHUNK_SIZE), this leaves room without inviting abuse. */
export const MAX_CHUNK_BYTES = 64 * 1024 * 1024;

/** The multipart fields, validated as they arrive (the file part streams to disk between them). */
const chunkFields = routes['POST /stream/upload-chunk'].multipart;

/** Options for @fastify/multipart in the /stream scope: one file part, a few small fields. */
export const multipartOptions = {
  // An oversized part is noticed by the route (413 after reading it), not thrown mid-stream.
  throwFileSizeLimit: false,
  limits: { fileSize: MAX_CHUNK_BYTES, files: 1, fields: 8, fieldSize: 4096, parts: 10 },
};

/**
 * After a refused chunk at start 0: an upload left with no bytes is the same as none, so it goes
 * (row and empty file), and a refused first chunk changes nothing. Skipped while another request
 * writes to it.
 */
async function forgetEmptyUpload(store: UploadStore, ownerId: string, label: string): Promise<void> {
  await store
    .withLock(
      ownerId,
      label,
      async (row) => {
        if (row.offset === 0) await store.remove(row);
      },
      () => new Error('gone'),
    )
    .catch(() => {}); // gone, busy, or the database is away: a stray empty upload is purged within a day
}

/** POST /upload-chunk, GET /upload-status and POST /upload (finalize), for admins (cookie or bearer). */
export function uploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): void {
  const { ctx, auth, store } = deps;

  registerRoutes(app, auth, {
    'POST /stream/upload-chunk': ({ request, session }) => receiveChunk(request, session.user),
    'GET /stream/upload-status': async ({ session: { user }, query: { fileName } }) => ({
      offset: await store.offsetOf(user.id, fileName),
    }),
    'POST /stream/upload': async ({ session: { user }, headers: { filename } }) => {
      const { videoId, durationSeconds } = await finalizeUpload(ctx, deps, user, filename);
      deps.wakeJobs();
      return {
        url: videoUrl(videoId),
        deleteUrl: videoDeleteUrl(videoId),
        duration: formatDuration(durationSeconds),
      };
    },
  });

  /**
   * Multipart `fileName`, `start`, optional `size` and `checksum`, and `file`. Fields sent before the
   * file let it stream straight to the store (to a bucket only when `size` is among them: S3 needs a
   * part's length up front); a file sent first is kept aside until the fields arrive.
   */
  async function receiveChunk(request: FastifyRequest, user: SessionUser): Promise<UploadOffsetResponse> {
    const fields: Record<string, string> = {};
    let chunk: OpenChunk | undefined;
    let opened: { fileName: string; start: number } | undefined;
    let committed = false;
    let written: { digest: string } | undefined;
    let spooled: Spooled | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        if (part.fieldname !== 'file' || written || spooled) {
          await discard(part.file);
          continue;
        }
        if (fields.fileName !== undefined && fields.start !== undefined) {
          await onFilePart(part, async () => {
            const head = parseInput(chunkFields.pick({ fileName: true, start: true, size: true }), fields);
            chunk = await store.openChunk(user.id, head.fileName, head.start);
            opened = head;
            written = await chunk.write(part.file, head.size);
          });
        } else {
          spooled = await onFilePart(part, () => ctx.media.scratch.spool(part.file));
        }
      }
      const meta = parseInput(chunkFields, fields);
      if (spooled) {
        chunk = await store.openChunk(user.id, meta.fileName, meta.start);
        opened = meta;
        if (meta.size !== undefined && meta.size !== spooled.size)
          throw badRequest(mediaMessages.sizeMismatch);
        written = await chunk.write(spooled.stream(), spooled.size);
      }
      if (!chunk || !written) throw badRequest(mediaMessages.fileMissing);
      if (meta.checksum !== undefined && meta.checksum !== written.digest) {
        throw badRequest(mediaMessages.checksumMismatch);
      }
      const offset = await chunk.commit();
      committed = true;
      ctx.metrics.uploadBytes.inc(Math.max(0, offset - opened!.start));
      return { offset };
    } finally {
      await chunk?.release();
      await spooled?.remove();
      if (opened?.start === 0 && !committed) await forgetEmptyUpload(store, user.id, opened.fileName);
    }
  }
}
