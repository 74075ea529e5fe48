import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { jobs, videos } from '../db/schema';
import { mediaKeys, type MediaStore, type StoreKind } from '../storage';
import { PUT_PART_BYTES, SINGLE_PUT_MAX_BYTES } from '../storage/s3-store';
import { scratchReadStream } from '../storage/scratch';

export interface MigrateReport {
  moved: number;
  objects: number;
  bytes: number;
  /** Videos left where they are for now (packaging in progress): run the command again later. */
  waiting: { id: string; title: string }[];
  thumbnails: number;
}

interface Sums {
  size: number;
  md5: string;
  sha256: string;
  /** The ETag S3 gives this file as we upload it: its MD5, or the MD5 of its parts' MD5s and their count. */
  etag: string;
}

/** Size and checksums of a scratch (or local store) file, read once. */
async function sumsOf(file: string): Promise<Sums> {
  const md5 = createHash('md5');
  const sha = createHash('sha256');
  const parts: Buffer[] = [];
  let part = createHash('md5');
  let inPart = 0;
  let size = 0;
  for await (const chunk of scratchReadStream(file) as AsyncIterable<Buffer>) {
    md5.update(chunk);
    sha.update(chunk);
    size += chunk.length;
    for (let at = 0; at < chunk.length;) {
      const take = Math.min(chunk.length - at, PUT_PART_BYTES - inPart);
      part.update(chunk.subarray(at, at + take));
      inPart += take;
      at += take;
      if (inPart === PUT_PART_BYTES) {
        parts.push(part.digest());
        part = createHash('md5');
        inPart = 0;
      }
    }
  }
  if (inPart) parts.push(part.digest());
  const md5Hex = md5.digest('hex');
  const etag =
    size <= SINGLE_PUT_MAX_BYTES
      ? md5Hex
      : `${createHash('md5').update(Buffer.concat(parts)).digest('hex')}-${parts.length}`;
  return { size, md5: md5Hex, sha256: sha.digest('hex'), etag };
}

/**
 * Copies one object and proves the copy: the size, and a checksum computed by the receiving side
 * (S3's ETag against our MD5, or the local file read back against the SHA-256 of what was read).
 * Answers the bytes copied, 0 when a verified copy was already there (a resumed run).
 */
async function copyVerified(
  ctx: AppContext,
  from: MediaStore,
  to: MediaStore,
  key: string,
  scratchName: string,
) {
  const { scratch } = ctx.media;
  const file = await from.fetchToFile(key, scratch.path(scratchName));
  try {
    const sums = await sumsOf(file);
    if (from.kind === 's3') {
      // The bytes we read are the bucket's: its ETag of a single-part object is their MD5.
      const etag = (await from.head(key))?.etag;
      if (etag && !etag.includes('-') && etag !== sums.md5)
        throw new Error(`${key}: read back wrong from ${from.kind}`);
    }
    const verify = async () => {
      const there = await to.head(key);
      if (!there || there.size !== sums.size) return false;
      if (to.kind === 's3') return there.etag === sums.etag;
      // The local store answers its own file (no copy): read it back.
      return (await sumsOf(await to.fetchToFile(key, ''))).sha256 === sums.sha256;
    };
    if (await verify()) return 0;
    await to.put(key, { file });
    if (!(await verify()))
      throw new Error(`${key}: the copy on ${to.kind} does not match (size or checksum)`);
    return sums.size;
  } finally {
    if (from.kind !== 'local') await scratch.remove(scratchName); // a local store's file is the object itself
  }
}

/**
 * `media:migrate --to <store>`: moves every video to `to`, one at a time: copies each object (its
 * renditions, poster and source if still kept), verifies each copy's size and checksum, switches the
 * video's row over, then removes the old copy. Thumbnails are copied too. Idempotent and resumable:
 * a video is switched only after all its copies are verified, copies already verified are not sent
 * again, and a video whose packaging is still running is left for the next run.
 */
export async function migrateMedia(
  ctx: AppContext,
  to: StoreKind,
  progress: (line: string) => void = () => {},
): Promise<MigrateReport> {
  const target = ctx.media.of(to);
  await ctx.media.scratch.ensure();
  const report: MigrateReport = { moved: 0, objects: 0, bytes: 0, waiting: [], thumbnails: 0 };
  const pending = await ctx.db
    .select({ id: videos.id, title: videos.title, store: videos.store, status: videos.status })
    .from(videos)
    .where(ne(videos.store, to))
    .orderBy(asc(videos.createdAt));
  const busy = new Set(
    (
      await ctx.db
        .select({ videoId: sql<string>`${jobs.payload}->>'videoId'` })
        .from(jobs)
        .where(
          and(
            inArray(jobs.type, ['media.package', 'media.ladder']),
            inArray(jobs.status, ['queued', 'running']),
          ),
        )
    ).map((r) => r.videoId),
  );
  for (const video of pending) {
    if (video.status === 'processing' || busy.has(video.id)) {
      report.waiting.push({ id: video.id, title: video.title });
      progress(`  waiting  ${video.id}  "${video.title}": still being packaged; run again later`);
      continue;
    }
    const from = ctx.media.of(video.store);
    const keys = (await from.list(mediaKeys.video(video.id))).map((o) => o.key);
    if (await from.head(mediaKeys.source(video.id))) keys.push(mediaKeys.source(video.id));
    let bytes = 0;
    for (const key of keys) bytes += await copyVerified(ctx, from, target, key, `${video.id}.migrate`);
    const switched = await ctx.db
      .update(videos)
      .set({ store: to, updatedAt: ctx.clock.now() })
      .where(and(eq(videos.id, video.id), eq(videos.store, video.store)))
      .returning({ id: videos.id });
    if (!switched.length) continue; // moved or deleted by someone else meanwhile
    // The old copy goes: nodes still remembering the old store look the video up again on a miss.
    await from.deletePrefix(mediaKeys.video(video.id));
    await from.delete(mediaKeys.source(video.id));
    report.moved++;
    report.objects += keys.length;
    report.bytes += bytes;
    progress(
      `  moved    ${video.id}  "${video.title}": ${keys.length} objects (${(bytes / 1e6).toFixed(1)} MB copied), verified, now on ${to}`,
    );
  }
  // Thumbnails are content-addressed and shared: copied (never removed from the old store).
  for (const kind of ['local', 's3'] as const) {
    if (kind === to || (kind === 's3' && !ctx.media.s3)) continue;
    const from = ctx.media.of(kind);
    for (const thumb of await from.list('thumbnails/')) {
      const name = `thumb.${thumb.key.slice('thumbnails/'.length)}`;
      if ((await copyVerified(ctx, from, target, thumb.key, name)) > 0) report.thumbnails++;
    }
  }
  return report;
}
