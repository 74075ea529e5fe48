/**
 * What the sources that read the picture or the sound (text on screen, speech) share: the video
 * they read, when they are due, and their common signature.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import type { SearchSource } from '../../contract/search';
import type { AppContext } from '../context';
import type { JobRunContext } from '../jobs/types';
import { PermanentJobError } from '../jobs/types';
import type { MediaTools } from '../storage/ffmpeg';
import { sourceFile } from '../media/packaging/package-job';
import { isMarkedPlaylist, renditionSegments } from '../media/packaging/rendition-reader';
import { mediaKeys, readText, renditionName, type MediaStore } from '../storage';
import { PLAYLIST } from '../media/packaging/hls';
import { indexStateOf, setIndexState } from './index-store';

export interface SearchDeps {
  tools: MediaTools;
}

export type Input = { file: string; format?: string };

/**
 * Indexes one source of a video that reads the picture or the sound (text on screen, speech), its
 * state saved as it goes; `input` reads the video once for all of them. Answers the entries it
 * wrote, or undefined when it had nothing to do (off, or done already).
 */
export type SourceIndexer = (
  ctx: AppContext,
  deps: SearchDeps,
  video: { id: string; durationSeconds: number },
  input: () => Promise<Input>,
  force: boolean,
  run: JobRunContext,
) => Promise<number | undefined>;

/** Marks a source of the video off, saying why (the admin reads it): it is not indexed. */
export const markOff = (ctx: AppContext, videoId: string, source: SearchSource, why: string) =>
  setIndexState(ctx.db, videoId, source, { status: 'off', error: why }, ctx.clock.now());

/**
 * What OCR and speech read: the source while it is kept, else the top rung of the ladder
 * (decrypted segment by segment into a scratch file). Never a forensic variant: a marked top rung
 * is refused.
 */
export async function readableInput(
  ctx: AppContext,
  store: MediaStore,
  videoId: string,
  renditions: number[],
  name: string,
): Promise<Input> {
  const source = await sourceFile(store, ctx.media.scratch, videoId, name);
  if (source) return { file: source };
  const top = Math.max(...renditions);
  if (!Number.isFinite(top)) throw new PermanentJobError('the video has no source and no rendition');
  const rendition = renditionName(top);
  const playlist = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
  if (isMarkedPlaylist(playlist))
    throw new PermanentJobError('the source is gone and the renditions carry forensic marks');
  const segments = await renditionSegments(ctx, store, videoId, rendition);
  if (!segments) throw new PermanentJobError('the video has no source and no rendition');
  const file = ctx.media.scratch.path(`${name}.ts`);
  await ctx.media.scratch.ensure();
  await writeFile(file, '');
  for await (const piece of segments) await appendFile(file, piece);
  return { file, format: 'mpegts' };
}

/**
 * Whether a source that reads the picture or the sound runs now: not when its setting is off
 * (`offBecause`, saved as the source's state) or when it is done and not forced. Its saved state.
 */
export async function dueSource(
  ctx: AppContext,
  videoId: string,
  source: 'screen' | 'speech',
  offBecause: string | undefined,
  force: boolean,
) {
  if (offBecause) {
    await markOff(ctx, videoId, source, offBecause);
    return undefined;
  }
  const state = await indexStateOf(ctx.db, videoId, source);
  return state?.status === 'done' && !force ? undefined : { state };
}
