import { copyFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { videos } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import type { JobHandler } from '../../jobs/types';
import { LINK_SECONDS } from '../delivery/tokens';
import { mediaKeys, readText, renditionName } from '../../storage';
import { PLAYLIST } from './hls';
import { openSegmentKey } from '../../videos/video-secrets';
import { encryptRendition, videoKeysFor } from './segment-keys';

/** A re-keyed segment's name: a new one, so a player holding the old playlist keeps the old bytes. */
const rekeyedName = (file: string, period: number) => (period === 0 ? file : file.replace(/\.ts$/, '_k.ts'));

/** The playlist as packaged before key rotation: original names, one key (period 0) at the top. */
function originalOf(playlist: string): string {
  let keyed = false;
  const lines = playlist.split('\n').flatMap((line) => {
    if (!line.startsWith('#EXT-X-KEY:')) return [line.replace(/_k\.ts$/, '.ts')];
    if (keyed) return [];
    keyed = true;
    return ['#EXT-X-KEY:METHOD=AES-128,URI="key:0"'];
  });
  return lines.join('\n');
}

/** Videos still encrypted with one key (packaged before key rotation), oldest first. */
export async function videosToRekey(ctx: AppContext): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.status, 'ready'), isNotNull(videos.hlsKey)))
    .orderBy(videos.createdAt);
  return rows.map((r) => r.id);
}

/**
 * Re-encrypts a single-key video with rotating keys, remux-free: each segment is decrypted with the
 * old key and encrypted with its period's key. Period 0 keeps the old key, so its segments stay as
 * they are; later segments get new names, and each rendition's playlist is replaced last (one
 * object), so a player on the old playlist and one on the new both play throughout. The video row
 * is switched (hls_key cleared) once every rendition is done; the old files go by a job after the
 * links of old playlists have expired. Killed at any point, a new run redoes the video from its
 * original files, which stay until that job.
 */
export async function rekeyVideo(ctx: AppContext, videoId: string): Promise<boolean> {
  const [video] = await ctx.db
    .select({
      hlsKey: videos.hlsKey,
      renditions: videos.renditions,
      store: videos.store,
      status: videos.status,
    })
    .from(videos)
    .where(eq(videos.id, videoId))
    .limit(1);
  if (!video?.hlsKey || video.status !== 'ready') return false;
  const store = ctx.media.of(video.store);
  const { scratch } = ctx.media;
  const oldKey = openSegmentKey(ctx.signingKey, videoId, video.hlsKey);
  const keysFor = videoKeysFor(ctx, videoId);
  const superseded: string[] = [];
  for (const height of video.renditions) {
    const rendition = renditionName(height);
    const playlistKey = mediaKeys.videoFile(videoId, rendition, PLAYLIST);
    const current = await readText(store, playlistKey);
    if (current === undefined) continue;
    const name = `${videoId}.rekey.${rendition}`;
    try {
      const dir = await scratch.folder(name);
      const original = originalOf(current);
      await writeFile(path.join(dir, PLAYLIST), original);
      const files = original.split('\n').filter((l) => l && !l.startsWith('#'));
      for (const file of files) {
        const target = path.join(dir, file);
        const got = await store.fetchToFile(mediaKeys.videoFile(videoId, rendition, file), target);
        if (got !== target) await copyFile(got, target); // the local store answers its own file: never edit it
      }
      await encryptRendition(dir, keysFor, ctx.config.keyRotationSeconds, {
        decryptWith: () => oldKey,
        rename: rekeyedName,
      });
      for (const file of await readdir(dir)) {
        if (file === PLAYLIST || files.includes(file)) continue; // unchanged (period 0) or the originals
        await store.put(mediaKeys.videoFile(videoId, rendition, file), { file: path.join(dir, file) });
        superseded.push(mediaKeys.videoFile(videoId, rendition, file.replace(/_k\.ts$/, '.ts')));
      }
      await store.put(playlistKey, { file: path.join(dir, PLAYLIST) });
    } finally {
      await scratch.remove(name);
    }
  }
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx.update(videos).set({ hlsKey: null, updatedAt: now }).where(eq(videos.id, videoId));
    await queueRekeyCleanup(tx, videoId, superseded, now);
  });
  return true;
}

/** Queues the removal of files a video no longer lists, for when no link signed up to `now` works any more. */
export function queueRekeyCleanup(db: Db, videoId: string, keys: string[], now: Date) {
  return enqueueJob(
    db,
    'media.rekey-cleanup',
    { videoId, keys },
    { runAt: new Date(now.getTime() + LINK_SECONDS * 1000) },
  );
}

/** Job `media.rekey-cleanup`: removes the single-key segments a re-key replaced, once no link to them works. */
export function rekeyCleanupHandler(ctx: AppContext): JobHandler<'media.rekey-cleanup'> {
  return async ({ videoId, keys }) => {
    const [video] = await ctx.db
      .select({ store: videos.store })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!video) return; // deleted: its files went with it
    const store = ctx.media.of(video.store);
    for (const key of keys) await store.delete(key);
  };
}
