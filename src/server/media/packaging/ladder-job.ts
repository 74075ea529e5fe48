import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { videos } from '../../db/schema';
import type { JobHandler } from '../../jobs/types';
import { fsyncTree } from '../storage';
import { ladderFor, writeKeyFiles, writeRendition } from './hls';
import { assertStillWanted, moveIntoPlace, type PackagingDeps } from './package-job';
import { trackVideoWork } from './video-work';

/**
 * Job `media.ladder`: encodes each missing rung below the source height at the lowest CPU priority,
 * moving each into place and listing it (in `videos.renditions`) only when complete. The source is
 * removed once nothing needs it any more.
 */
export function ladderHandler(ctx: AppContext, deps: PackagingDeps): JobHandler<'media.ladder'> {
  const { tools, paths } = deps;
  return async ({ videoId }, run) => {
    const [video] = await ctx.db
      .select({ status: videos.status, hlsKey: videos.hlsKey, renditions: videos.renditions })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!video || video.status !== 'ready' || !video.hlsKey) return;
    const source = paths.source(videoId);
    if (!(await stat(source).catch(() => undefined))) return; // done before

    await trackVideoWork(ctx, videoId, run.signal, async (signal) => {
      const probe = await tools.probe(source, signal);
      if (!probe?.video) return;
      let listed = [...video.renditions];
      for (const height of ladderFor(probe.video.height)) {
        if (listed.includes(height)) continue;
        const name = `${videoId}.v${height}`;
        const stagingDir = path.join(paths.staging, name);
        try {
          await rm(stagingDir, { recursive: true, force: true });
          await mkdir(stagingDir, { recursive: true });
          const keyInfo = await writeKeyFiles(paths.staging, name, video.hlsKey!);
          await writeRendition(tools, {
            source,
            sourceSize: probe.video,
            outDir: stagingDir,
            keyInfoFile: keyInfo,
            plan: { kind: 'encode', height, audio: probe.audioCodec ? 'aac' : 'none' },
            signal,
            lowPriority: true,
          });
          await fsyncTree(stagingDir);
          await assertStillWanted(ctx, run, signal);
          await moveIntoPlace(stagingDir, paths.rendition(videoId, height));
          const next = [...new Set([...listed, height])].sort((a, b) => b - a);
          const rows = await ctx.db
            .update(videos)
            .set({ renditions: next, updatedAt: ctx.clock.now() })
            .where(and(eq(videos.id, videoId), eq(videos.status, 'ready')))
            .returning({ id: videos.id });
          if (!rows.length) {
            await rm(paths.rendition(videoId, height), { recursive: true, force: true });
            return; // deleted meanwhile
          }
          listed = next;
          run.log.info({ videoId, height }, 'ladder rung added');
        } finally {
          await rm(stagingDir, { recursive: true, force: true });
          await rm(path.join(paths.staging, `${name}.key`), { force: true });
          await rm(path.join(paths.staging, `${name}.keyinfo`), { force: true });
        }
      }
      // Every rung is served from its own files now: the upload itself is no longer needed.
      await rm(source, { force: true });
    });
  };
}
