import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import {
  mediaMessages,
  UploadChunkFields,
  UploadFileName,
  UploadStatusQuery,
  type FinalizeUploadResponse,
  type UploadOffsetResponse,
} from '../../../contract/media';
import type { AppContext } from '../../context';
import { badRequest, parseInput } from '../../errors';
import type { Auth } from '../../plugins/auth';
import { formatDuration } from '../../videos/presenter';
import type { MediaTools } from '../ffmpeg';
import type { MediaPaths } from '../storage';
import { videoDeleteUrl, videoUrl } from '../urls';
import { finalizeUpload } from './finalize';
import { discard, type OpenChunk, type UploadStore } from './upload-store';

export interface UploadRouteDeps {
  ctx: AppContext;
  auth: Auth;
  store: UploadStore;
  tools: MediaTools;
  paths: MediaPaths;
  /** Tells the job runner in this process that packaging was queued. */
  wakeJobs: () => void;
}

/** Largest single chunk; the client sends 5 MiB (UPLOAD_CHUNK_SIZE), this leaves room without inviting abuse. */
export const MAX_CHUNK_BYTES = 64 * 1024 * 1024;

/** Options for @fastify/multipart in the /stream scope: one file part, a few small fields. */
export const multipartOptions = {
  // An oversized part is noticed by the route (413 after reading it), not thrown mid-stream.
  throwFileSizeLimit: false,
  limits: { fileSize: MAX_CHUNK_BYTES, files: 1, fields: 8, fieldSize: 4096, parts: 10 },
};

/** Runs `work` on a file part; if it throws, the rest of the part is read and dropped before the error answers. */
async function onFilePart<T>(part: MultipartFile, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await discard(part.file).catch(() => {});
    throw error;
  }
}

/**
 * After a refused chunk at start 0: an upload left with no bytes is the same as none, so it goes
 * (row and empty file), and a refused first chunk changes nothing. Skipped while another request
 * writes to it.
 */
async function forgetEmptyUpload(store: UploadStore, ownerId: string, label: string): Promise<void> {
  await store
    .withLock(ownerId, label, async () => {
      const row = await store.find(ownerId, label);
      if (row?.offset === 0) await store.remove(row);
    })
    .catch(() => {}); // busy, or the database is away: a stray empty upload is purged within a day
}

/** POST /upload-chunk, GET /upload-status and POST /upload (finalize), for admins (cookie or bearer). */
export function uploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): void {
  const { ctx, auth, store } = deps;

  /**
   * Multipart `fileName`, `start`, optional `checksum` and `file`. Fields sent before the file let
   * it stream straight to disk; a file sent first is kept aside until the fields arrive.
   */
  app.post('/upload-chunk', async (request): Promise<UploadOffsetResponse> => {
    const { user } = await auth.requireAdmin(request);
    const fields: Record<string, string> = {};
    let chunk: OpenChunk | undefined;
    let opened: { fileName: string; start: number } | undefined;
    let committed = false;
    let written: { digest: string } | undefined;
    let spooled: { file: string; remove(): Promise<void> } | undefined;
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
            const head = parseInput(UploadChunkFields.pick({ fileName: true, start: true }), fields);
            chunk = await store.openChunk(user.id, head.fileName, head.start);
            opened = head;
            written = await chunk.write(part.file);
          });
        } else {
          spooled = await onFilePart(part, () => store.spool(part.file));
        }
      }
      const meta = parseInput(UploadChunkFields, fields);
      if (spooled) {
        chunk = await store.openChunk(user.id, meta.fileName, meta.start);
        opened = meta;
        written = await chunk.write(createReadStream(spooled.file, { highWaterMark: 1024 * 1024 }));
      }
      if (!chunk || !written) throw badRequest(mediaMessages.fileMissing);
      if (meta.checksum !== undefined && meta.checksum !== written.digest) {
        throw badRequest(mediaMessages.checksumMismatch);
      }
      const offset = await chunk.commit();
      committed = true;
      return { offset };
    } finally {
      await chunk?.release();
      await spooled?.remove();
      if (opened?.start === 0 && !committed) await forgetEmptyUpload(store, user.id, opened.fileName);
    }
  });

  app.get('/upload-status', async (request): Promise<UploadOffsetResponse> => {
    const { user } = await auth.requireAdmin(request);
    const { fileName } = parseInput(UploadStatusQuery, request.query);
    return { offset: await store.offsetOf(user.id, fileName) };
  });

  /** Header `filename` names the upload (percent-encoding allowed, for names beyond ASCII). */
  app.post('/upload', async (request): Promise<FinalizeUploadResponse> => {
    const { user } = await auth.requireAdmin(request);
    const raw = request.headers.filename;
    let label = typeof raw === 'string' ? raw : undefined;
    try {
      if (label?.includes('%')) label = decodeURIComponent(label);
    } catch {
      // not percent-encoding after all: take it as it is
    }
    const fileName = parseInput(UploadFileName, label);
    const { videoId, durationSeconds } = await finalizeUpload(ctx, deps, user, fileName);
    deps.wakeJobs();
    return {
      url: videoUrl(videoId),
      deleteUrl: videoDeleteUrl(videoId),
      duration: formatDuration(durationSeconds),
    };
  });
}
