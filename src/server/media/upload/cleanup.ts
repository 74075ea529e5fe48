import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { inArray, lt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { uploads, videos } from '../../db/schema';
import type { JobHandler } from '../../jobs/types';
import { UUID_PATTERN, type MediaPaths } from '../storage';

/** An upload without a new chunk for this long is abandoned. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60_000;
/** Media files without a video row are removed once they are this old (never a finalize in flight). */
const ORPHAN_AFTER_MS = 60 * 60_000;

async function olderThan(file: string, ms: number): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  // ctime: a rename (finalize moving an upload into sources/) counts as new.
  return Boolean(info && Date.now() - Math.max(info.ctimeMs, info.mtimeMs) > ms);
}

/**
 * Job `media.purge-uploads`: deletes uploads abandoned for 24 h (row and bytes), then sweeps files no
 * row refers to any more: stray upload files, and media of videos whose rows an admin deleted.
 */
export function purgeUploadsHandler(ctx: AppContext, paths: MediaPaths): JobHandler<'media.purge-uploads'> {
  return async (_payload, { log }) => {
    const cutoff = new Date(ctx.clock.now().getTime() - ABANDONED_AFTER_MS);
    const abandoned = await ctx.db.delete(uploads).where(lt(uploads.updatedAt, cutoff)).returning();
    for (const row of abandoned) await rm(paths.upload(row.storageName), { force: true });

    const known = new Set(
      (await ctx.db.select({ name: uploads.storageName }).from(uploads)).map((r) => r.name),
    );
    let strays = 0;
    for (const name of await readdir(paths.uploads).catch(() => [] as string[])) {
      const file = path.join(paths.uploads, name);
      if (!known.has(name) && (await olderThan(file, ABANDONED_AFTER_MS))) {
        await rm(file, { force: true });
        strays++;
      }
    }

    for (const dir of [paths.videos, paths.sources]) {
      const ids = (await readdir(dir).catch(() => [] as string[])).filter((n) => UUID_PATTERN.test(n));
      if (!ids.length) continue;
      const alive = new Set(
        (await ctx.db.select({ id: videos.id }).from(videos).where(inArray(videos.id, ids))).map((r) => r.id),
      );
      for (const id of ids) {
        if (!alive.has(id) && (await olderThan(path.join(dir, id), ORPHAN_AFTER_MS))) {
          await rm(path.join(dir, id), { recursive: true, force: true });
          strays++;
        }
      }
    }
    if (abandoned.length || strays)
      log.info({ abandoned: abandoned.length, strays }, 'purged upload leftovers');
  };
}
