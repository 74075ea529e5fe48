import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, truncate, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { mediaMessages } from '../../contract/media';
import { badRequest, conflict, tooLarge, unprocessable } from '../errors';
import { mediaKeys, type ChunkWriter, type UploadRef, type UploadTarget } from './media-store';
import { fsyncPath, writeFully } from './scratch';

/** Writes are gathered to this size before hitting the disk (busboy hands over ~64 KiB pieces). */
const WRITE_BATCH_BYTES = 1024 * 1024;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * One file per upload, `uploads/<storageName>`, written in place; only fsynced bytes are acknowledged.
 * `pathOf` is the local store's file of a key (the store creates its uploads, so they do not import it).
 */
export class LocalUploads implements UploadTarget {
  constructor(
    private readonly pathOf: (key: string) => string,
    private readonly maxUploadBytes: number,
  ) {}

  private fileOf(storageName: string): string {
    return this.pathOf(mediaKeys.upload(storageName));
  }

  async begin(storageName: string): Promise<{ multipartId: null }> {
    const file = this.fileOf(storageName);
    await mkdir(path.dirname(file), { recursive: true });
    await (await open(file, 'w')).close();
    return { multipartId: null };
  }

  async openChunk(upload: UploadRef): Promise<ChunkWriter> {
    const handle = await open(this.fileOf(upload.storageName), 'r+').catch((error: unknown) => {
      if (missing(error)) throw conflict(mediaMessages.wrongOffset, { offset: 0 }); // file lost: start over
      throw error;
    });
    try {
      // Bytes past the offset were never acknowledged (a crash mid-chunk): they are not ours to keep.
      await handle.truncate(upload.offset);
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
    return chunkWriter(handle, upload, this.maxUploadBytes);
  }

  async complete(upload: UploadRef): Promise<void> {
    const file = this.fileOf(upload.storageName);
    const source = this.pathOf(mediaKeys.source(upload.storageName));
    const size = (await stat(file).catch(() => undefined))?.size;
    if (size === undefined) {
      // Moved before, by a finalize that died before its database commit.
      if ((await stat(source).catch(() => undefined))?.size === upload.offset) return;
      throw unprocessable(mediaMessages.emptyUpload);
    }
    if (size < upload.offset) throw unprocessable(mediaMessages.emptyUpload);
    // Unacknowledged bytes of an interrupted chunk are not part of the video.
    if (size > upload.offset) await truncate(file, upload.offset);
    await mkdir(path.dirname(source), { recursive: true });
    await rename(file, source);
    await fsyncPath(path.dirname(source));
  }

  async abort(upload: { storageName: string }): Promise<void> {
    await rm(this.fileOf(upload.storageName), { force: true });
  }

  async listStarted(before: Date): Promise<{ storageName: string; multipartId: null }[]> {
    const dir = this.pathOf('uploads/');
    const out: { storageName: string; multipartId: null }[] = [];
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (name.startsWith('.')) continue;
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      // ctime: a restart (truncate) counts as new.
      if (info && Math.max(info.ctimeMs, info.mtimeMs) < before.getTime())
        out.push({ storageName: name, multipartId: null });
    }
    return out;
  }
}

/** A chunk written in place at the upload's offset; `release` cuts off whatever was not committed. */
function chunkWriter(handle: FileHandle, upload: UploadRef, max: number): ChunkWriter {
  const start = upload.offset;
  let written = 0;
  let state: 'open' | 'sealed' | 'released' = 'open';
  // Writeback of each batch starts while the rest of the chunk is still arriving (one datasync at a
  // time, chained), so the datasync that finally acknowledges the chunk has little left to flush.
  let earlySync: Promise<void> = Promise.resolve();
  // Linux reports a writeback error to one fsync only: one seen early must still fail the commit.
  let syncError: unknown;
  return {
    async write(source, size) {
      const hash = createHash('sha256');
      let batch: Buffer[] = [];
      let batchBytes = 0;
      let overflow = false;
      // A failed write (disk full) ends the writing, not the reading: leaving the loop would abandon
      // the part mid-stream, and the connection with it.
      let failure: unknown;
      const flush = async () => {
        if (!batchBytes) return;
        const buffers = batch;
        batch = [];
        const bytes = batchBytes;
        batchBytes = 0;
        await writeFully(handle, buffers, start + written);
        written += bytes;
        earlySync = earlySync
          .then(() => handle.datasync())
          .catch((error: unknown) => void (syncError ??= error));
      };
      let received = 0;
      for await (const piece of source) {
        received += piece.length;
        if (overflow || failure) continue; // keep reading so the client can finish sending and read our answer
        if (start + written + batchBytes + piece.length > max) {
          overflow = true;
          batch = [];
          batchBytes = 0;
          continue;
        }
        hash.update(piece);
        batch.push(piece);
        batchBytes += piece.length;
        if (batchBytes >= WRITE_BATCH_BYTES) await flush().catch((error: unknown) => void (failure = error));
      }
      if (failure) throw failure;
      if (overflow) throw tooLarge(mediaMessages.tooLarge(max));
      if (source.truncated) throw tooLarge(mediaMessages.chunkTooLarge);
      if (size !== undefined && received !== size) throw badRequest(mediaMessages.sizeMismatch);
      await flush();
      return { digest: hash.digest('base64'), bytes: written };
    },
    async seal() {
      await earlySync;
      if (syncError) throw syncError;
      await handle.datasync();
      state = 'sealed';
      return { offset: start + written, parts: [], pieces: [] };
    },
    async release(committed) {
      if (state === 'released') return;
      try {
        await earlySync;
        if (!committed) await handle.truncate(start).catch(() => {});
        await handle.close().catch(() => {});
      } finally {
        state = 'released';
      }
    },
  };
}
