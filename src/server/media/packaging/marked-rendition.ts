import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  MARK_SEGMENT_SECONDS,
  patternFrames,
  VARIANT_B_TAG,
  variantFileName,
  type Variant,
} from '../../marks/mark';
import type { MediaTools } from '../../storage/ffmpeg';
import { ensureScratchDir } from '../../storage/scratch';
import { renditionName } from '../../storage';
import { INFO_FILE, PLAYLIST, writeMarkedVariants, type AudioPlan, type RenditionInfo } from './hls';
import { encryptRendition, type KeysFor } from './segment-keys';

/**
 * Picture pixels one ffmpeg process encodes at once (per variant; it runs an encoder for A and one
 * for B per rung). A 720p source's whole ladder fits (~0.5 GB resident); a 1080p source's top rung
 * goes alone, then the rest (all eight encoders of a 1080p ladder in one process held 1 GB).
 */
export const MARK_PIXELS_PER_PROCESS = 1920 * 1088;

/** `heights` (tallest first) in runs that fit MARK_PIXELS_PER_PROCESS; a rung over it runs alone. */
export function markingGroups(heights: number[], sourceSize: { width: number; height: number }): number[][] {
  const aspect = sourceSize.height ? sourceSize.width / sourceSize.height : 16 / 9;
  const groups: number[][] = [];
  let pixels = Infinity; // so that the first rung opens a group
  for (const height of [...heights].sort((a, b) => b - a)) {
    const rung = height * height * aspect;
    if (pixels + rung > MARK_PIXELS_PER_PROCESS) {
      groups.push([]);
      pixels = 0;
    }
    groups.at(-1)!.push(height);
    pixels += rung;
  }
  return groups;
}

/**
 * Writes marked renditions (docs/FORENSIC.md), one per height into `outDirOf(height)`: ffmpeg encodes
 * the source twice per rung, with the video's pattern added (A) and subtracted (B), on the same
 * keyframe grid, one process for as many rungs as markingGroups allows (hls.ts writeMarkedVariants);
 * both are encrypted with the same keys; the segments move under opaque names and one playlist lists
 * A with each B on a VARIANT_B_TAG line.
 */
export async function writeMarkedRenditions(
  tools: MediaTools,
  input: {
    source: string;
    sourceSize: { width: number; height: number };
    durationSeconds: number;
    heights: number[];
    audio: AudioPlan;
    /** An empty scratch folder per height; the marked rendition ends up in it. */
    outDirOf: (height: number) => string;
    secret: Buffer;
    keysFor: KeysFor;
    rotationSeconds: number;
    signal?: AbortSignal;
  },
): Promise<Map<number, RenditionInfo>> {
  const { heights, outDirOf } = input;
  if (!heights.length) return new Map();
  const patternDir = outDirOf(heights[0]!);
  await ensureScratchDir(patternDir);
  const patternFile = path.join(patternDir, 'pattern.gray');
  const segments = Math.max(1, Math.ceil(input.durationSeconds / MARK_SEGMENT_SECONDS - 1e-6));
  await writeFile(patternFile, patternFrames(input.secret, segments));
  const variants = new Map<string, RenditionInfo>();
  for (const group of markingGroups(heights, input.sourceSize)) {
    const written = await writeMarkedVariants(tools, {
      source: input.source,
      sourceSize: input.sourceSize,
      heights: group,
      audio: input.audio,
      patternFile,
      segmentSeconds: MARK_SEGMENT_SECONDS,
      outDirOf: (height, variant) => path.join(outDirOf(height), variant),
      signal: input.signal,
      lowPriority: true,
    });
    for (const [key, info] of written) variants.set(key, info);
  }
  await rm(patternFile, { force: true });
  const infos = new Map<number, RenditionInfo>();
  for (const height of heights) {
    const outDir = outDirOf(height);
    const rendition = renditionName(height);
    const lists: Record<Variant, string[]> = { A: [], B: [] };
    for (const variant of ['A', 'B'] as const) {
      const dir = path.join(outDir, variant);
      await encryptRendition(dir, input.keysFor, input.rotationSeconds);
      const playlist = (await readFile(path.join(dir, PLAYLIST), 'utf8')).split('\n');
      lists[variant] = playlist;
      let index = 0;
      for (let i = 0; i < playlist.length; i++) {
        const line = playlist[i]!;
        if (!line || line.startsWith('#')) continue;
        const name = variantFileName(input.secret, rendition, index++, variant);
        await rename(path.join(dir, line), path.join(outDir, name));
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
    // The peak of either variant is what a player must budget for.
    const [infoA, infoB] = [variants.get(`${height}A`)!, variants.get(`${height}B`)!];
    const info = infoA.bandwidth >= infoB.bandwidth ? infoA : infoB;
    await writeFile(path.join(outDir, PLAYLIST), merged.join('\n'));
    await writeFile(path.join(outDir, INFO_FILE), JSON.stringify(info));
    for (const leftover of ['A', 'B']) {
      await rm(path.join(outDir, leftover), { recursive: true, force: true });
    }
    infos.set(height, info);
  }
  return infos;
}
