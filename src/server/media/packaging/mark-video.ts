import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { videos } from '../../db/schema';
import { VARIANT_B_TAG } from '../../forensic/mark';
import { forensicSecretOf } from '../../forensic/sessions';
import type { JobRunContext } from '../../jobs/types';
import type { MediaTools, ProbeResult } from '../ffmpeg';
import { mediaKeys, readText, renditionName, type MediaStore } from '../store';
import { ladderFor, PLAYLIST } from './hls';
import { writeMarkedRendition } from './marked-rendition';
import { assertStillWanted, clearScratch } from './package-job';
import { queueRekeyCleanup } from './rekey';
import { videoKeysFor } from './segment-keys';

const evenDown = (n: number) => Math.max(2, n - (n % 2));

/**
 * FORENSIC_MARKS=on, from the ladder job: every rung, the source's own height first, written as a
 * marked rendition (A and B). A rendition already there (the remuxed first one) is replaced in
 * place, playing throughout: the new segments have new names, the playlist goes last, the row's
 * stamp moves (child playlists are rebuilt), and the old segments are removed by a job once no link
 * to them works. A rendition already marked is skipped, so a killed run resumes.
 */
export async function markRenditions(
  ctx: AppContext,
  tools: MediaTools,
  input: {
    videoId: string;
    store: MediaStore;
    source: string;
    probe: ProbeResult;
    run: JobRunContext;
    signal: AbortSignal;
  },
): Promise<boolean> {
  const { videoId, store, source, probe, run, signal } = input;
  const secret = await forensicSecretOf(ctx.db, videoId);
  if (!secret) return false;
  const heights = [evenDown(probe.video!.height), ...ladderFor(probe.video!.height)];
  for (const height of heights) {
    const rendition = renditionName(height);
    const current = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
    if (current?.includes(VARIANT_B_TAG)) continue;
    const name = `${videoId}.mark.${rendition}`;
    try {
      const dir = await ctx.media.scratch.folder(name);
      await writeMarkedRendition(tools, {
        source,
        sourceSize: probe.video!,
        durationSeconds: probe.durationSeconds,
        height,
        audio: probe.audioCodec ? 'aac' : 'none',
        outDir: dir,
        rendition,
        secret,
        keysFor: videoKeysFor(ctx.db, videoId),
        rotationSeconds: ctx.config.keyRotationSeconds,
        signal,
      });
      await assertStillWanted(ctx, run, signal);
      for (const file of await readdir(dir)) {
        if (file !== PLAYLIST)
          await store.put(mediaKeys.videoFile(videoId, rendition, file), { file: path.join(dir, file) });
      }
      await store.put(mediaKeys.videoFile(videoId, rendition, PLAYLIST), { file: path.join(dir, PLAYLIST) });
      const replaced = (current ?? '')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .map((file) => mediaKeys.videoFile(videoId, rendition, file));
      const now = ctx.clock.now();
      const listed = await ctx.db.transaction(async (tx) => {
        const [row] = await tx
          .select({ renditions: videos.renditions })
          .from(videos)
          .where(and(eq(videos.id, videoId), eq(videos.status, 'ready')))
          .for('update')
          .limit(1);
        if (!row) return false;
        const next = [...new Set([...row.renditions, height])].sort((a, b) => b - a);
        await tx.update(videos).set({ renditions: next, updatedAt: now }).where(eq(videos.id, videoId));
        if (replaced.length) {
          await queueRekeyCleanup(tx, videoId, replaced, now);
        }
        return true;
      });
      if (!listed) {
        await store.deletePrefix(mediaKeys.rendition(videoId, height));
        return false;
      }
      run.log.info({ videoId, height }, 'marked rendition in place');
    } finally {
      await clearScratch(ctx.media.scratch, name);
    }
  }
  // An odd-height source was remuxed at its own height (say v481) and marked at v480: the unmarked
  // rendition leaves the list now and its files after the links' lifetime.
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ renditions: videos.renditions })
      .from(videos)
      .where(eq(videos.id, videoId))
      .for('update')
      .limit(1);
    const unmarked = (row?.renditions ?? []).filter((h) => !heights.includes(h));
    if (!row || !unmarked.length) return;
    await tx
      .update(videos)
      .set({ renditions: row.renditions.filter((h) => heights.includes(h)), updatedAt: now })
      .where(eq(videos.id, videoId));
    const keys: string[] = [];
    for (const h of unmarked)
      keys.push(...(await store.list(mediaKeys.rendition(videoId, h))).map((o) => o.key));
    await queueRekeyCleanup(tx, videoId, keys, now);
  });
  return true;
}
