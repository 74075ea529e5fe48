import { and, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { uploads, videos } from '../../db/schema';
import type { JobHandler } from '../../jobs/types';
import { mediaKeys, UUID_PATTERN, type MediaStore } from '../../storage';
import { uploadRef } from './upload-store';

/** An upload without a new chunk for this long is abandoned. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60_000;
/** Media without a video row is removed once it is this old (never a finalize or a move in flight). */
const ORPHAN_AFTER_MS = 60 * 60_000;

/**
 * Job `media.purge-uploads`: deletes uploads abandoned for 24 h (row and bytes: a file, or an S3
 * multipart upload and its pieces), then sweeps what no row refers to any more, in every store:
 * stray uploads, and media of videos whose rows an admin deleted (or that moved to another store).
 */
export function purgeUploadsHandler(ctx: AppContext): JobHandler<'media.purge-uploads'> {
  return async (_payload, { log }) => {
    const cutoff = new Date(ctx.clock.now().getTime() - ABANDONED_AFTER_MS);
    const abandoned = await ctx.db.delete(uploads).where(lt(uploads.updatedAt, cutoff)).returning();
    for (const row of abandoned) {
      await ctx.media
        .of(row.store)
        .uploads.abort(uploadRef(row))
        .catch((error: unknown) => log.warn({ err: error }, 'abandoned upload left for the next sweep'));
    }
    let strays = 0;
    const stores = [ctx.media.local, ...(ctx.media.s3 ? [ctx.media.s3] : [])];
    for (const store of stores) strays += await sweepStore(ctx, store);
    if (abandoned.length || strays)
      log.info({ abandoned: abandoned.length, strays }, 'purged upload leftovers');
  };
}

/** Removes one store's uploads without a row and media without a video row (in this store) that is old enough. */
async function sweepStore(ctx: AppContext, store: MediaStore): Promise<number> {
  let strays = 0;
  // Store times are wall-clock times: compared with the wall clock.
  const started = await store.uploads.listStarted(new Date(Date.now() - ABANDONED_AFTER_MS));
  if (started.length) {
    const names = [...new Set(started.map((u) => u.storageName))];
    const live = await named(ctx, uploads, uploads.storageName, names, eq(uploads.store, store.kind));
    for (const upload of started) {
      if (live.has(upload.storageName)) continue;
      await store.uploads.abort(upload);
      strays++;
    }
  }

  const orphanBefore = Date.now() - ORPHAN_AFTER_MS;
  for (const dir of ['videos/', 'sources/'] as const) {
    const ids = (await store.listChildren(dir)).filter((n) => UUID_PATTERN.test(n));
    if (!ids.length) continue;
    const alive = await named(ctx, videos, videos.id, ids, eq(videos.store, store.kind));
    // A source whose video row is not written yet belongs to a finalize in flight.
    const finalizing = await named(ctx, uploads, uploads.storageName, ids);
    for (const id of ids) {
      if (alive.has(id) || finalizing.has(id)) continue;
      if (dir === 'videos/') {
        const objects = await store.list(mediaKeys.video(id));
        if (objects.some((o) => o.modifiedAt.getTime() > orphanBefore)) continue;
        await store.deletePrefix(mediaKeys.video(id));
      } else {
        const source = await store.head(mediaKeys.source(id));
        if (!source || source.modifiedAt.getTime() > orphanBefore) continue;
        await store.delete(mediaKeys.source(id));
      }
      strays++;
    }
  }
  return strays;
}

/** Which of `values` some row of `table` still names in `column` (and matches `also`). */
async function named(
  ctx: AppContext,
  table: typeof uploads | typeof videos,
  column: typeof uploads.storageName | typeof videos.id,
  values: string[],
  also?: SQL,
): Promise<Set<string>> {
  const rows = await ctx.db
    .select({ value: column })
    .from(table)
    .where(and(inArray(column, values), also));
  return new Set(rows.map((r) => r.value));
}
