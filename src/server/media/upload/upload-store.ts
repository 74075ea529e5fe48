import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { mediaMessages } from '../../../contract/media';
import type { AppContext } from '../../context';
import { uploads } from '../../db/schema';
import { conflict, locked } from '../../errors';
import type { ChunkSource, ChunkWriter, UploadRef, UploadTarget } from '../../storage';

export type UploadRow = typeof uploads.$inferSelect;

/** A writer holds an upload this long without renewing; it renews every RENEW_MS while its chunk streams. */
export const LEASE_MS = 30_000;
const RENEW_MS = 10_000;

/** A chunk being written: nothing of it counts until `commit` has recorded it in the database. */
export interface OpenChunk {
  /** Streams `source` to the upload; `size` is the declared length, if the client sent one. */
  write(source: ChunkSource, size: number | undefined): Promise<{ digest: string; bytes: number }>;
  /** Makes the bytes durable in the store, then advances the stored offset; answers the new offset. */
  commit(): Promise<number>;
  /** Drops anything uncommitted and lets the next writer in. Safe to call twice. */
  release(): Promise<void>;
}

export const uploadRef = (row: UploadRow): UploadRef => ({
  storageName: row.storageName,
  multipartId: row.multipartId,
  offset: row.offset,
  parts: row.parts,
  pieces: row.pieces,
});

/**
 * The one-writer lease on an upload's row: taken with a conditional UPDATE (free, or expired), so it
 * holds across every node on PostgreSQL and on PGlite alike; renewed while held; `signal` aborts
 * when it is lost (a renewal found another owner, or could not reach the database for LEASE_MS).
 */
class Lease {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private renewedAt = Date.now();

  constructor(
    private readonly ctx: AppContext,
    readonly token: string,
    readonly row: UploadRow,
  ) {
    this.timer = setInterval(() => void this.renew(), RENEW_MS).unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The row's lease is ours (a condition for every write made under it). */
  get held() {
    return and(eq(uploads.id, this.row.id), eq(uploads.leaseOwner, this.token));
  }

  private async renew(): Promise<void> {
    try {
      const rows = await this.ctx.db
        .update(uploads)
        .set({ leaseUntil: new Date(this.ctx.clock.now().getTime() + LEASE_MS) })
        .where(this.held)
        .returning({ id: uploads.id });
      if (!rows.length) return this.lose();
      this.renewedAt = Date.now();
    } catch {
      if (Date.now() - this.renewedAt >= LEASE_MS - RENEW_MS) this.lose(); // it may be someone else's by now
    }
  }

  private lose(): void {
    clearInterval(this.timer);
    this.controller.abort(new Error('upload lease lost'));
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.ctx.db
      .update(uploads)
      .set({ leaseOwner: null, leaseUntil: null })
      .where(this.held)
      .catch(() => {}); // the database is away: the lease runs out by itself
  }
}

/**
 * Chunked, resumable uploads, one row per (admin, label), in the store the row names. The row's
 * `offset` only ever counts bytes the store acknowledged (fsynced, or parts the bucket answered), so
 * after a crash the status is a length whose bytes are intact, whichever node asks.
 */
export class UploadStore {
  constructor(private readonly ctx: AppContext) {}

  private target(row: UploadRow): UploadTarget {
    return this.ctx.media.of(row.store).uploads;
  }

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

  /** Takes the row's lease, or 423 while another request holds it. */
  private async lease(rowId: string): Promise<Lease> {
    const token = randomUUID();
    const now = this.ctx.clock.now();
    const [row] = await this.ctx.db
      .update(uploads)
      .set({ leaseOwner: token, leaseUntil: new Date(now.getTime() + LEASE_MS) })
      .where(and(eq(uploads.id, rowId), or(isNull(uploads.leaseOwner), lt(uploads.leaseUntil, now))))
      .returning();
    if (!row) throw locked(mediaMessages.busy);
    return new Lease(this.ctx, token, row);
  }

  /** Runs `work` on the upload holding its lease: 404 without one, 423 while another writer holds it. */
  async withLock<T>(
    ownerId: string,
    label: string,
    work: (row: UploadRow) => Promise<T>,
    missing: () => Error,
  ): Promise<T> {
    const found = await this.find(ownerId, label);
    if (!found) throw missing();
    const lease = await this.lease(found.id);
    try {
      return await work(lease.row);
    } finally {
      await lease.release();
    }
  }

  /**
   * Opens a chunk at `start`, which must equal the stored offset (409 with the offset otherwise).
   * `start` 0 always begins the upload anew, in the current store: the client is sending a (possibly
   * different) file from its first byte, and resuming a stale partial one under the same label would
   * corrupt it.
   */
  async openChunk(ownerId: string, label: string, start: number): Promise<OpenChunk> {
    const lease = await this.leaseForChunk(ownerId, label, start);
    let writer: ChunkWriter | undefined;
    try {
      let row = lease.row;
      if (start !== 0 && row.offset !== start)
        throw conflict(mediaMessages.wrongOffset, { offset: row.offset });
      if (start === 0) row = await this.restart(lease);
      writer = await this.target(row).openChunk(uploadRef(row), lease.signal);
    } catch (error) {
      await lease.release();
      throw error;
    }
    return this.chunk(lease, writer);
  }

  /** The lease of the upload's row, creating the row (leased) for a first chunk. */
  private async leaseForChunk(ownerId: string, label: string, start: number): Promise<Lease> {
    const row = await this.find(ownerId, label);
    if (row) return this.lease(row.id);
    if (start !== 0) throw conflict(mediaMessages.wrongOffset, { offset: 0 });
    const token = randomUUID();
    const now = this.ctx.clock.now();
    const [created] = await this.ctx.db
      .insert(uploads)
      .values({
        ownerId,
        label,
        storageName: randomUUID(),
        store: this.ctx.media.current.kind,
        offset: 0,
        leaseOwner: token,
        leaseUntil: new Date(now.getTime() + LEASE_MS),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (created) return new Lease(this.ctx, token, created);
    const raced = await this.find(ownerId, label); // another request created it a moment ago
    if (!raced) throw locked(mediaMessages.busy);
    return this.lease(raced.id);
  }

  /** Starts the upload over: the stored offset goes down before the bytes do, never the other way round. */
  private async restart(lease: Lease): Promise<UploadRow> {
    const row = lease.row;
    const kind = this.ctx.media.current.kind;
    const now = this.ctx.clock.now();
    const [reset] = await this.ctx.db
      .update(uploads)
      .set({ offset: 0, parts: [], pieces: [], updatedAt: now })
      .where(lease.held)
      .returning();
    if (!reset) throw locked(mediaMessages.busy);
    if (row.store !== kind) await this.target(row).abort(uploadRef(row));
    const previous = row.store === kind && (row.multipartId || row.offset) ? uploadRef(row) : undefined;
    const { multipartId } = await this.ctx.media.of(kind).uploads.begin(row.storageName, previous);
    const [begun] = await this.ctx.db
      .update(uploads)
      .set({ store: kind, multipartId })
      .where(lease.held)
      .returning();
    if (!begun) throw locked(mediaMessages.busy);
    return begun;
  }

  private chunk(lease: Lease, writer: ChunkWriter): OpenChunk {
    const { ctx } = this;
    let committed = false;
    let released = false;
    return {
      write: (source, size) => writer.write(source, size),
      async commit() {
        const progress = await writer.seal();
        const [row] = await ctx.db
          .update(uploads)
          .set({ ...progress, updatedAt: ctx.clock.now() })
          .where(lease.held)
          .returning({ offset: uploads.offset });
        if (!row) throw locked(mediaMessages.busy); // lost the lease meanwhile: someone else decides now
        committed = true;
        return row.offset;
      },
      async release() {
        if (released) return;
        released = true;
        try {
          await writer.release(committed);
        } finally {
          await lease.release();
        }
      },
    };
  }

  /** Forgets an upload and its bytes (what the store fails to drop now, the cleanup drops later). */
  async remove(row: UploadRow): Promise<void> {
    await this.ctx.db.delete(uploads).where(eq(uploads.id, row.id));
    await this.target(row)
      .abort(uploadRef(row))
      .catch((error: unknown) => this.ctx.logger.warn({ err: error }, 'upload bytes left for the cleanup'));
  }

  /** Embedded database: only this process writes, so every lease left in it died with the last one. */
  async releaseAllLeases(): Promise<void> {
    await this.ctx.db
      .update(uploads)
      .set({ leaseOwner: null, leaseUntil: null })
      .where(isNotNull(uploads.leaseOwner));
  }
}

/** Reads a stream to its end, dropping the bytes (so the client can finish sending before we answer). */
export async function discard(source: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of source) {
    // dropped
  }
}

/** Runs `work` on a file part; if it throws, the rest of the part is read and dropped before the error answers. */
export async function onFilePart<T>(
  part: { file: AsyncIterable<unknown> },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await discard(part.file).catch(() => {});
    throw error;
  }
}
