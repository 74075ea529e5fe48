import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { videos } from '../../db/schema';
import type { JobHandler } from '../../jobs/types';
import { mediaKeys, type MediaStore } from '../../storage';
import { audioPlanFor, ladderFor, writeRendition } from './hls';
import { encryptRendition, videoKeysFor } from './segment-keys';
import {
  assertStillWanted,
  clearScratch,
  packagingState,
  sourceFile,
  type PackagingDeps,
} from './package-job';
import { markRenditions, unmarkedSource } from './mark-video';
import { trackVideoWork } from './video-work';

/**
 * Job `media.ladder`: encodes each missing rung below the source height at the lowest CPU priority,
 * publishing each to the video's store and listing it (in `videos.renditions`) only once every one
 * of its objects is there. The source is removed once nothing needs it any more. With
 * FORENSIC_MARKS=on every rung is written marked instead (mark-video.ts).
 */
export function ladderHandler(ctx: AppContext, deps: PackagingDeps): JobHandler<'media.ladder'> {
  const { tools } = deps;
  const { scratch } = ctx.media;
  return async ({ videoId }, run) => {
    const video = await packagingState(ctx, videoId);
    if (!video || video.status !== 'ready') return;
    const store = ctx.media.of(video.store);
    const sourceName = `${videoId}.ladder`;
    try {
      // The upload, or (for `media:mark` of a video packaged unmarked) its tallest unmarked rendition.
      const marking = ctx.config.forensicMarks
        ? await unmarkedSourceIfGone(ctx, store, video.renditions, videoId, sourceName)
        : undefined;
      const source = marking?.file ?? (await sourceFile(store, scratch, videoId, sourceName));
      if (!source) return; // done before

      await trackVideoWork(ctx, videoId, run.signal, async (signal) => {
        const probe = await tools.probe(source, signal);
        if (!probe?.video) return;
        if (ctx.config.forensicMarks) {
          // Every rung twice, A and B, the source's height included (docs/FORENSIC.md).
          const done = await markRenditions(ctx, tools, {
            videoId, store, source, probe, run, signal, heights: marking?.heights,
          }); // prettier-ignore
          if (done) await store.delete(mediaKeys.source(videoId));
          return;
        }
        let listed = [...video.renditions];
        for (const height of ladderFor(probe.video.height)) {
          if (listed.includes(height)) continue;
          const name = `${videoId}.v${height}`;
          try {
            const started = performance.now();
            const stagingDir = await scratch.folder(name);
            await writeRendition(tools, {
              source,
              sourceSize: probe.video,
              outDir: stagingDir,
              plan: { kind: 'encode', height, audio: audioPlanFor(probe) },
              signal,
              lowPriority: true,
            });
            await encryptRendition(stagingDir, videoKeysFor(ctx, videoId), ctx.config.keyRotationSeconds);
            await assertStillWanted(ctx, run, signal);
            await store.publish(stagingDir, mediaKeys.rendition(videoId, height), signal);
            const next = [...new Set([...listed, height])].sort((a, b) => b - a);
            const rows = await ctx.db
              .update(videos)
              .set({ renditions: next, updatedAt: ctx.clock.now() })
              .where(and(eq(videos.id, videoId), eq(videos.status, 'ready'), eq(videos.store, video.store)))
              .returning({ id: videos.id });
            if (!rows.length) {
              // Deleted (or moved to another store) meanwhile: the rung belongs to nobody.
              await store.deletePrefix(mediaKeys.rendition(videoId, height));
              return;
            }
            listed = next;
            ctx.metrics.packagingDuration.observe({ kind: 'ladder' }, (performance.now() - started) / 1000);
            run.log.info({ videoId, height }, 'ladder rung added');
          } finally {
            await clearScratch(scratch, name);
          }
        }
        // Every rung is served from its own files now: the upload itself is no longer needed.
        await store.delete(mediaKeys.source(videoId));
      });
    } finally {
      await clearScratch(scratch, sourceName);
    }
  };
}

/** With the upload gone, the rendition marking starts from (mark-video.ts); undefined while the upload is there. */
async function unmarkedSourceIfGone(
  ctx: AppContext,
  store: MediaStore,
  renditions: number[],
  videoId: string,
  name: string,
) {
  if (await store.head(mediaKeys.source(videoId))) return undefined;
  return unmarkedSource(ctx, store, videoId, renditions, name);
}
