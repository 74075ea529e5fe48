import path from 'node:path';
import { readdir } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { videos } from '../../db/schema';
import type { JobRunContext } from '../../jobs/types';
import type { ProbeResult } from '../../storage/ffmpeg';
import { mediaKeys, renditionName, type MediaStore } from '../../storage';
import { PLAYLIST } from './hls';
import { queueRekeyCleanup } from './rekey';

// Replacing a rendition while the video plays (a marked one over the remuxed one, mark-video.ts; a
// packaged one over a live class's, live/recording.ts): the new segments have new names, the
// playlist goes last, the row's stamp moves (child playlists are rebuilt), and the files replaced go
// by a job once no link to them works (rekey.ts).

/** What a job that packages renditions in place works from: the video's source file, probed. */
export interface InPlaceWork {
  videoId: string;
  store: MediaStore;
  source: string;
  probe: ProbeResult;
  run: JobRunContext;
  signal: AbortSignal;
}

/**
 * The row's new stamp when a rendition is replaced: later than the last one even when the clock
 * did not move past it (the delivery names its cached child playlists by the stamp, and a live
 * class's ingest stamps ahead of the clock: live/ingest.ts).
 */
export const laterStamp = (now: Date) =>
  sql`greatest(${now}, ${videos.updatedAt} + interval '1 millisecond')`;

/**
 * Stores the rendition written in `dir` as the video's `height` rung (segments first, playlist
 * last) and lists it on the row; the segments `current` (the playlist it replaces, if any) named
 * are queued for removal. False when the video is no longer ready (deleted meanwhile): nothing is
 * listed and the caller decides what becomes of the stored files.
 */
export async function replaceRendition(
  ctx: AppContext,
  store: MediaStore,
  input: { videoId: string; height: number; dir: string; current: string | undefined },
): Promise<boolean> {
  const { videoId, height, dir } = input;
  const rendition = renditionName(height);
  for (const file of await readdir(dir))
    if (file !== PLAYLIST)
      await store.put(mediaKeys.videoFile(videoId, rendition, file), { file: path.join(dir, file) });
  await store.put(mediaKeys.videoFile(videoId, rendition, PLAYLIST), { file: path.join(dir, PLAYLIST) });
  const replaced = (input.current ?? '')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((file) => mediaKeys.videoFile(videoId, rendition, file));
  return ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const [row] = await tx
      .select({ renditions: videos.renditions })
      .from(videos)
      .where(and(eq(videos.id, videoId), eq(videos.status, 'ready')))
      .for('update')
      .limit(1);
    if (!row) return false;
    const next = [...new Set([...row.renditions, height])].sort((a, b) => b - a);
    await tx
      .update(videos)
      .set({ renditions: next, updatedAt: laterStamp(now) })
      .where(eq(videos.id, videoId));
    if (replaced.length) await queueRekeyCleanup(tx, videoId, replaced, now);
    return true;
  });
}

/**
 * The renditions outside `kept` (a height no replacing rung has, say an odd-height remux at v481
 * marked at v480) leave the row's list now and their files once no link to them works.
 */
export async function dropRenditionsBut(ctx: AppContext, store: MediaStore, videoId: string, kept: number[]) {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const [row] = await tx
      .select({ renditions: videos.renditions })
      .from(videos)
      .where(eq(videos.id, videoId))
      .for('update')
      .limit(1);
    const gone = (row?.renditions ?? []).filter((h) => !kept.includes(h));
    if (!row || !gone.length) return;
    await tx
      .update(videos)
      .set({ renditions: row.renditions.filter((h) => kept.includes(h)), updatedAt: laterStamp(now) })
      .where(eq(videos.id, videoId));
    const keys: string[] = [];
    for (const h of gone) keys.push(...(await store.list(mediaKeys.rendition(videoId, h))).map((o) => o.key));
    await queueRekeyCleanup(tx, videoId, keys, now);
  });
}
