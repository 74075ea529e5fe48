import { createHash, randomUUID, type Hash } from 'node:crypto';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { mediaMessages } from '../../../contract/media';
import type { AppContext } from '../../context';
import { uploads } from '../../db/schema';
import { conflict, locked, tooLarge } from '../../errors';
import type { MediaPaths } from '../storage';

export type UploadRow = typeof uploads.$inferSelect;

/** Writes are gathered to this size before hitting the disk (busboy hands over ~64 KiB pieces). */
const WRITE_BATCH_BYTES = 1024 * 1024;

/** A chunk being written: its bytes are on disk past the committed offset until `commit`. */
export interface OpenChunk {
  /** Streams `source` to the upload at `start`; answers the SHA-256 (base64) of what it wrote. */
  write(
    source: AsyncIterable<Buffer> & Partial<Pick<Readable, 'readableEnded'>>,
  ): Promise<{ digest: string; bytes: number }>;
  /** Makes the bytes durable, then advances the stored offset; answers the new offset. */
  commit(): Promise<number>;
  /** Cuts anything uncommitted off the file and lets the next writer in. Safe to call twice. */
  release(): Promise<void>;
}

/**
 * Writes every byte of `buffers` at `position`. A nearly full disk takes part of a write and refuses
 * the rest (ENOSPC) only on the next one; a single writev would count the missing bytes as written.
 */
export async function writeFully(handle: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  const pending = buffers.filter((b) => b.length > 0);
  let at = position;
  while (pending.length) {
    const { bytesWritten } = await handle.writev(pending, at);
    if (bytesWritten === 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    at += bytesWritten;
    let skip = bytesWritten;
    while (pending.length && skip >= pending[0]!.length) skip -= pending.shift()!.length;
    if (skip) pending[0] = pending[0]!.subarray(skip);
  }
}

/** Reads a stream to its end, dropping the bytes (so the client can finish sending before we answer). */
export async function discard(source: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of source) {
    // dropped
  }
}

/**
 * Chunked, resumable uploads, one row per (admin, label). The row's `offset` only ever counts bytes
 * that were fsynced, so after a crash the status is a length whose bytes are intact.
 */
export class UploadStore {
  /** One writer per upload (this process): chunk writes and finalize take the same lock. */
  private readonly locks = new Set<string>();

  constructor(
    private readonly ctx: AppContext,
    private readonly paths: MediaPaths,
  ) {}

  async find(ownerId: string, label: string): Promise<UploadRow | undefined> {
    const [row] = await this.ctx.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.ownerId, ownerId), eq(uploads.label, label)))
      .limit(1);
    return row;
  }

  /** Bytes stored for this admin's upload of `label` (0 when there is none). */
  async offsetOf(ownerId: string, label: string): Promise<number> {
    return (await this.find(ownerId, label))?.offset ?? 0;
  }

  /** Runs `work` holding the upload's lock; a second writer gets 423. */
  async withLock<T>(ownerId: string, label: string, work: () => Promise<T>): Promise<T> {
    const key = `${ownerId}\n${label}`;
    if (this.locks.has(key)) throw locked(mediaMessages.busy);
    this.locks.add(key);
    try {
      return await work();
    } finally {
      this.locks.delete(key);
    }
  }

  /**
   * Opens a chunk at `start`, which must equal the stored offset (409 with the offset otherwise).
   * `start` 0 always begins the upload anew: the client is sending a (possibly different) file from
   * its first byte, and resuming a stale partial file under the same label would corrupt it.
   */
  async openChunk(ownerId: string, label: string, start: number): Promise<OpenChunk> {
    const key = `${ownerId}\n${label}`;
    if (this.locks.has(key)) throw locked(mediaMessages.busy);
    this.locks.add(key);
    let handle: FileHandle | undefined;
    try {
      const now = this.ctx.clock.now();
      let row = await this.find(ownerId, label);
      if (start !== 0 && row?.offset !== start) {
        throw conflict(mediaMessages.wrongOffset, { offset: row?.offset ?? 0 });
      }
      if (!row) {
        [row] = await this.ctx.db
          .insert(uploads)
          .values({ ownerId, label, storageName: randomUUID(), offset: 0, createdAt: now, updatedAt: now })
          .returning();
      } else if (start === 0 && row.offset !== 0) {
        // Restart: the stored offset goes down before the bytes do, never the other way round.
        await this.ctx.db.update(uploads).set({ offset: 0, updatedAt: now }).where(eq(uploads.id, row.id));
      }
      await mkdir(this.paths.uploads, { recursive: true });
      handle = await open(this.paths.upload(row!.storageName), start === 0 ? 'w' : 'r+').catch((error) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw conflict(mediaMessages.wrongOffset, { offset: 0 }); // file lost: start over
        }
        throw error;
      });
      // Bytes past the offset were never acknowledged (a crash mid-chunk): they are not ours to keep.
      await handle.truncate(start);
      return this.chunkWriter(row!, start, handle, key);
    } catch (error) {
      await handle?.close().catch(() => {});
      this.locks.delete(key);
      throw error;
    }
  }

  private chunkWriter(row: UploadRow, start: number, handle: FileHandle, key: string): OpenChunk {
    const max = this.ctx.config.maxUploadBytes;
    let written = 0;
    let state: 'open' | 'committed' | 'released' = 'open';
    // Writeback of each batch starts while the rest of the chunk is still arriving (one datasync at a
    // time, chained), so the datasync that finally acknowledges the chunk has little left to flush.
    let earlySync: Promise<void> = Promise.resolve();
    // Linux reports a writeback error to one fsync only: one seen early must still fail the commit.
    let syncError: unknown;
    const db = this.ctx.db;
    const clock = this.ctx.clock;
    const locks = this.locks;
    return {
      async write(source) {
        const hash: Hash = createHash('sha256');
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
          const size = batchBytes;
          batchBytes = 0;
          await writeFully(handle, buffers, start + written);
          written += size;
          earlySync = earlySync
            .then(() => handle.datasync())
            .catch((error: unknown) => void (syncError ??= error));
        };
        for await (const piece of source) {
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
          if (batchBytes >= WRITE_BATCH_BYTES)
            await flush().catch((error: unknown) => void (failure = error));
        }
        if (failure) throw failure;
        if (overflow) throw tooLarge(mediaMessages.tooLarge(max));
        if ((source as { truncated?: boolean }).truncated) throw tooLarge(mediaMessages.chunkTooLarge);
        await flush();
        return { digest: hash.digest('base64'), bytes: written };
      },
      async commit() {
        await earlySync;
        if (syncError) throw syncError;
        await handle.datasync();
        const offset = start + written;
        await db.update(uploads).set({ offset, updatedAt: clock.now() }).where(eq(uploads.id, row.id));
        state = 'committed';
        return offset;
      },
      async release() {
        if (state === 'released') return;
        try {
          await earlySync;
          if (state === 'open') await handle.truncate(start).catch(() => {});
          await handle.close().catch(() => {});
        } finally {
          state = 'released';
          locks.delete(key);
        }
      },
    };
  }

  /**
   * A file part that arrived before the fields naming its upload: kept aside (hashing as it goes)
   * until the fields say where it belongs.
   */
  async spool(source: AsyncIterable<Buffer>): Promise<{ file: string; remove(): Promise<void> }> {
    await mkdir(this.paths.uploads, { recursive: true });
    const file = path.join(this.paths.uploads, `.spool-${randomUUID()}`);
    const handle = await open(file, 'w');
    const remove = () => rm(file, { force: true });
    try {
      let position = 0;
      let failure: unknown;
      for await (const piece of source) {
        if (failure) continue; // read to the end of the part, as in `write`
        await writeFully(handle, [piece], position).catch((error: unknown) => void (failure = error));
        position += piece.length;
      }
      if (failure) throw failure;
      if ((source as { truncated?: boolean }).truncated) throw tooLarge(mediaMessages.chunkTooLarge);
    } catch (error) {
      await handle.close().catch(() => {});
      await remove();
      throw error;
    }
    await handle.close();
    return { file, remove };
  }

  /** Forgets an upload and its bytes. */
  async remove(row: UploadRow): Promise<void> {
    await this.ctx.db.delete(uploads).where(eq(uploads.id, row.id));
    await rm(this.paths.upload(row.storageName), { force: true });
  }
}
