import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { jobs, videos } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import { LADDER_ATTEMPTS, LADDER_PRIORITY } from '../job-types';
import { forensicSecretOf } from '../../marks/sessions';
import type { MediaTools } from '../../storage/ffmpeg';
import { mediaKeys, readText, renditionName, type MediaStore } from '../../storage';
import { audioPlanFor, ladderFor, PLAYLIST } from './hls';
import { writeMarkedRenditions } from './marked-rendition';
import { isMarkedPlaylist, renditionSegments } from './rendition-reader';
import { assertStillWanted, clearScratch } from './package-job';
import { dropRenditionsBut, replaceRendition, type InPlaceWork } from './in-place';
import { videoKeysFor } from './segment-keys';

const evenDown = (n: number) => Math.max(2, n - (n % 2));
/** The marked rungs of a video whose tallest picture is `height` pixels high. */
const ladderOf = (height: number) => [evenDown(height), ...ladderFor(height)];

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
  input: InPlaceWork & {
    /** The rungs the video ends with; by default the source's height and the ladder below it. */
    heights?: number[];
  },
): Promise<boolean> {
  const { videoId, store, source, probe, run, signal } = input;
  const secret = await forensicSecretOf(ctx, videoId);
  if (!secret) return false;
  const heights = input.heights ?? ladderOf(probe.video!.height);
  // What each rung serves now; the rungs already marked are skipped (a killed run resumes).
  const current = new Map<number, string | undefined>();
  for (const height of heights) {
    const playlist = await readText(store, mediaKeys.videoFile(videoId, renditionName(height), PLAYLIST));
    if (!isMarkedPlaylist(playlist)) current.set(height, playlist);
  }
  const todo = [...current.keys()];
  const scratchName = (height: number) => `${videoId}.mark.${renditionName(height)}`;
  try {
    const dirs = new Map<number, string>();
    for (const height of todo) dirs.set(height, await ctx.media.scratch.folder(scratchName(height)));
    // Every rung at once: one decode of the source (marked-rendition.ts).
    await writeMarkedRenditions(tools, {
      source,
      sourceSize: probe.video!,
      durationSeconds: probe.durationSeconds,
      heights: todo,
      audio: audioPlanFor(probe),
      outDirOf: (height) => dirs.get(height)!,
      secret,
      keysFor: videoKeysFor(ctx, videoId),
      rotationSeconds: ctx.config.keyRotationSeconds,
      signal,
    });
    for (const height of todo) {
      await assertStillWanted(ctx, run, signal);
      const dir = dirs.get(height)!;
      if (!(await replaceRendition(ctx, store, { videoId, height, dir, current: current.get(height) }))) {
        await store.deletePrefix(mediaKeys.rendition(videoId, height));
        return false;
      }
      run.log.info({ videoId, height }, 'marked rendition in place');
    }
  } finally {
    for (const height of todo) await clearScratch(ctx.media.scratch, scratchName(height));
  }
  // An odd-height source was remuxed at its own height (say v481) and marked at v480: the unmarked
  // rendition leaves the list now and its files after the links' lifetime.
  await dropRenditionsBut(ctx, store, videoId, heights);
  return true;
}

/**
 * For a video packaged before FORENSIC_MARKS=on (its upload removed after the ladder): its tallest
 * rendition not marked yet, decrypted into one MPEG-TS file in the scratch folder (`<name>.source`,
 * which clearScratch removes), and the rungs the video ends with. Marking re-encodes from that
 * rendition (one more generation of compression). Undefined when every rendition is marked.
 */
export async function unmarkedSource(
  ctx: AppContext,
  store: MediaStore,
  videoId: string,
  renditions: number[],
  name: string,
): Promise<{ file: string; heights: number[] } | undefined> {
  const tallestFirst = [...renditions].sort((a, b) => b - a);
  for (const height of tallestFirst) {
    const rendition = renditionName(height);
    const playlist = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
    if (playlist === undefined || isMarkedPlaylist(playlist)) continue;
    const segments = await renditionSegments(ctx, store, videoId, rendition);
    if (!segments) continue;
    await ctx.media.scratch.ensure();
    const file = ctx.media.scratch.path(`${name}.source`);
    await pipeline(Readable.from(segments), createWriteStream(file));
    return { file, heights: ladderOf(tallestFirst[0]!) };
  }
  return undefined;
}

/** Ready videos (all, or `videoId`) with a rendition not marked yet, oldest first. */
export async function videosToMark(ctx: AppContext, videoId?: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: videos.id, store: videos.store, renditions: videos.renditions })
    .from(videos)
    .where(and(eq(videos.status, 'ready'), videoId ? eq(videos.id, videoId) : undefined))
    .orderBy(videos.createdAt);
  const out: string[] = [];
  for (const row of rows) {
    const store = ctx.media.of(row.store);
    for (const height of row.renditions) {
      const playlist = await readText(store, mediaKeys.videoFile(row.id, renditionName(height), PLAYLIST));
      if (!isMarkedPlaylist(playlist)) {
        out.push(row.id);
        break;
      }
    }
  }
  return out;
}

/**
 * `media:mark`: queues the ladder job of each video in `videoIds` that has none pending; with
 * FORENSIC_MARKS=on the ladder marks what is not marked yet (ladder-job.ts). Returns those queued.
 */
export async function queueMarking(ctx: AppContext, videoIds: string[]): Promise<string[]> {
  if (!videoIds.length) return [];
  const pending = await ctx.db
    .select({ videoId: sql<string>`${jobs.payload}->>'videoId'` })
    .from(jobs)
    .where(and(eq(jobs.type, 'media.ladder'), inArray(jobs.status, ['queued', 'running'])));
  const busy = new Set(pending.map((p) => p.videoId));
  const queued = videoIds.filter((id) => !busy.has(id));
  for (const videoId of queued)
    await enqueueJob(
      ctx.db,
      'media.ladder',
      { videoId },
      { priority: LADDER_PRIORITY, maxAttempts: LADDER_ATTEMPTS },
    );
  return queued;
}
