import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  MARK_SEGMENT_SECONDS,
  patternFrames,
  VARIANT_B_TAG,
  variantFileName,
  type Variant,
} from '../../forensic/mark';
import type { MediaTools } from '../ffmpeg';
import { ensureScratchDir } from '../store/scratch';
import { INFO_FILE, PLAYLIST, writeRendition, type RenditionInfo } from './hls';
import { encryptRendition, type KeysFor } from './segment-keys';

/**
 * Writes a marked rendition (docs/FORENSIC.md) into `outDir`: ffmpeg encodes the source twice, with
 * the video's pattern added (A) and subtracted (B), on the same keyframe grid; both are encrypted with
 * the same keys; the segments move under opaque names and one playlist lists A with each B on a
 * VARIANT_B_TAG line. Costs two encodes of the rung.
 */
export async function writeMarkedRendition(
  tools: MediaTools,
  input: {
    source: string;
    sourceSize: { width: number; height: number };
    durationSeconds: number;
    height: number;
    audio: 'aac' | 'none';
    outDir: string;
    rendition: string;
    secret: Buffer;
    keysFor: KeysFor;
    rotationSeconds: number;
    signal?: AbortSignal;
  },
): Promise<RenditionInfo> {
  await ensureScratchDir(input.outDir);
  const patternFile = path.join(input.outDir, 'pattern.gray');
  const segments = Math.max(1, Math.ceil(input.durationSeconds / MARK_SEGMENT_SECONDS - 1e-6));
  await writeFile(patternFile, patternFrames(input.secret, segments));
  const lists: Record<Variant, string[]> = { A: [], B: [] };
  let info: RenditionInfo | undefined;
  for (const variant of ['A', 'B'] as const) {
    const dir = path.join(input.outDir, variant);
    const described = await writeRendition(tools, {
      source: input.source,
      sourceSize: input.sourceSize,
      outDir: dir,
      plan: { kind: 'encode', height: input.height, audio: input.audio },
      mark: { patternFile, variant },
      segmentSeconds: MARK_SEGMENT_SECONDS,
      signal: input.signal,
      lowPriority: true,
    });
    // The peak of either variant is what a player must budget for.
    info = info && info.bandwidth >= described.bandwidth ? info : described;
    await encryptRendition(dir, input.keysFor, input.rotationSeconds);
    const playlist = (await readFile(path.join(dir, PLAYLIST), 'utf8')).split('\n');
    lists[variant] = playlist;
    let index = 0;
    for (let i = 0; i < playlist.length; i++) {
      const line = playlist[i]!;
      if (!line || line.startsWith('#')) continue;
      const name = variantFileName(input.secret, input.rendition, index++, variant);
      await rename(path.join(dir, line), path.join(input.outDir, name));
      playlist[i] = name;
    }
  }
  const a = lists.A;
  const bNames = lists.B.filter((l) => l && !l.startsWith('#'));
  if (bNames.length !== a.filter((l) => l && !l.startsWith('#')).length) {
    throw new Error('the A and B variants have different segment counts');
  }
  let b = 0;
  const merged = a.flatMap((line) =>
    line && !line.startsWith('#') ? [`${VARIANT_B_TAG}${bNames[b++]}`, line] : [line],
  );
  await writeFile(path.join(input.outDir, PLAYLIST), merged.join('\n'));
  await writeFile(path.join(input.outDir, INFO_FILE), JSON.stringify(info));
  for (const leftover of ['A', 'B', 'pattern.gray']) {
    await rm(path.join(input.outDir, leftover), { recursive: true, force: true });
  }
  return info!;
}
