import { createHmac } from 'node:crypto';
import { inputArgs } from '../storage/ffmpeg';

/**
 * The invisible mark (docs/FORENSIC.md): for segment i, a keyed grid of +-1 cells, PATTERN_COLS x
 * PATTERN_ROWS, scaled up bicubically to the picture (one smooth blob per ~80 px at 720p, which
 * survives downscaling and re-encoding) and added to luma (variant A) or subtracted (variant B)
 * with MARK_AMPLITUDE levels before encoding. Chroma is untouched.
 */
export const PATTERN_COLS = 16;
export const PATTERN_ROWS = 9;
/** Luma levels (of 219) the pattern moves a pixel: invisible on a flat slide, found after a re-encode. */
export const MARK_AMPLITUDE = 1;

export type Variant = 'A' | 'B';

/**
 * Marked renditions cut 3 s segments (unmarked ones 6 s): each segment carries one bit of the
 * session's sequence, and naming a session needs 34 decided bits (code.ts), so any 2-minute excerpt
 * (at least 39 whole segments) is enough. It costs a keyframe every 3 s on marked renditions only.
 */
export const MARK_SEGMENT_SECONDS = 3;

/** One 8-bit grey frame per segment (128 +- amplitude): the pattern ffmpeg reads as a second input. */
export function patternFrames(secret: Buffer, segments: number, amplitude = MARK_AMPLITUDE): Buffer {
  const cells = PATTERN_COLS * PATTERN_ROWS;
  const out = Buffer.alloc(cells * segments);
  for (let segment = 0; segment < segments; segment++) {
    const bits = keyedBits(secret, `lectern forensic pattern:${segment}`, cells);
    for (let cell = 0; cell < cells; cell++) {
      out[segment * cells + cell] = 128 + (bits[cell] ? amplitude : -amplitude);
    }
  }
  return out;
}

function keyedBits(secret: Buffer, label: string, count: number): Uint8Array {
  const bits = new Uint8Array(count);
  for (let block = 0; block * 256 < count; block++) {
    const bytes = createHmac('sha256', secret).update(`${label}:${block}`).digest();
    for (let b = 0; b < 256 && block * 256 + b < count; b++)
      bits[block * 256 + b] = (bytes[b >> 3]! >> (b & 7)) & 1;
  }
  return bits;
}

/**
 * ffmpeg arguments marking the first input's video at every height in `heights`, both ways: the
 * pattern file as input 1 (one frame per `segmentSeconds`, so each segment has its own pattern) and
 * one filter graph that decodes and scales once per rung, with an output label per variant.
 */
export function markedLadderFilter(input: {
  patternFile: string;
  segmentSeconds: number;
  heights: readonly number[];
}): {
  inputArgs: string[];
  filterComplex: string;
  outputs: { height: number; variant: Variant; label: string }[];
} {
  const n = input.heights.length;
  const each = (prefix: string) => input.heights.map((_, i) => `[${prefix}${i}]`).join('');
  const graph = [`[0:v:0]split=${n}${each('src')}`, `[1:v]split=${n}${each('grid')}`];
  const outputs: { height: number; variant: Variant; label: string }[] = [];
  input.heights.forEach((height, i) => {
    // grainmerge: A + B - 128 (variant A); grainextract: A - B + 128 (variant B). The pattern's
    // chroma is 128: colour stays.
    graph.push(
      `[src${i}]scale=-2:${height},format=yuv420p[base${i}]`,
      `[grid${i}][base${i}]scale2ref=flags=bicubic[pattern${i}][video${i}]`,
      `[pattern${i}]format=yuv420p,split[pa${i}][pb${i}]`,
      `[video${i}]split[va${i}][vb${i}]`,
      `[va${i}][pa${i}]blend=all_mode=grainmerge:shortest=0:repeatlast=1[A${i}]`,
      `[vb${i}][pb${i}]blend=all_mode=grainextract:shortest=0:repeatlast=1[B${i}]`,
    );
    outputs.push({ height, variant: 'A', label: `[A${i}]` }, { height, variant: 'B', label: `[B${i}]` });
  });
  return {
    inputArgs: [
      '-pix_fmt',
      'gray',
      '-s',
      `${PATTERN_COLS}x${PATTERN_ROWS}`,
      '-framerate',
      `1/${input.segmentSeconds}`,
      ...inputArgs(input.patternFile, 'rawvideo'),
    ],
    filterComplex: graph.join(';'),
    outputs,
  };
}

/**
 * The stored (and served) name of one variant of one segment: opaque and unguessable without the
 * video's secret, so a playlist shows neither which variant it lists nor the other one's name.
 */
export function variantFileName(
  secret: Buffer,
  rendition: string,
  segment: number,
  variant: Variant,
): string {
  const mac = createHmac('sha256', secret)
    .update(`lectern forensic name:${rendition}:${segment}:${variant}`)
    .digest('hex')
    .slice(0, 32);
  return `f_${mac}.ts`;
}

/** Served names of marked segments. */
export const VARIANT_FILE_PATTERN = /^f_[0-9a-f]{32}\.ts$/;

/**
 * In a marked rendition's packaged playlist, the line before each segment names its B variant (the
 * segment line is A). Never served: the child playlist keeps one of the two per session.
 */
export const VARIANT_B_TAG = '#X-LECTERN-VARIANT-B:';

/** The segment names a session's sequence picks (0 = A, the listed file; 1 = its B alternate). */
export function chooseVariants(
  files: readonly string[],
  alternates: readonly string[],
  sequence: Uint8Array,
): string[] {
  return files.map((file, i) => (sequence[i] ? (alternates[i] ?? file) : file));
}
