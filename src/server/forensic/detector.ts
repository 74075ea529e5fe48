import type { Decision } from '../marks/code';

/**
 * Deciding A or B per segment of a suspect copy (docs/FORENSIC.md). Everything here works on
 * small grey frames (DETECT_WIDTH x DETECT_HEIGHT, DETECT_FPS a second, `luma.ts` makes them with
 * ffmpeg), which keeps the mark (a 16 x 9 blob pattern) and drops what a re-encode changes.
 */
export const DETECT_WIDTH = 64;
export const DETECT_HEIGHT = 36;
export const DETECT_FPS = 5;
export const FRAME_BYTES = DETECT_WIDTH * DETECT_HEIGHT;
/** Frames this close to a segment's edge are skipped (a re-encode may smear the cut). */
const EDGE_FRAMES = 2;
/** |score| needed to decide: +1 is variant A exactly, -1 variant B, 0 neither. */
export const DECISION_SCORE = 0.5;
/** Share of a segment's frames that must lean the same way. */
const FRAME_AGREEMENT = 0.75;

export interface SegmentDecision {
  /** Segment index in the reference. */
  segment: number;
  /** Mean normalized correlation: ~+1 variant A, ~-1 variant B, ~0 neither (or both averaged). */
  score: number;
  decision: Decision;
}

export interface Reference {
  /** Frames of variant A and B of the whole video, DETECT_FPS a second from t = 0. */
  a: Uint8Array;
  b: Uint8Array;
  segmentSeconds: number;
}

const framesIn = (bytes: Uint8Array) => Math.floor(bytes.length / FRAME_BYTES);

/**
 * Correlates each suspect frame, placed at reference frame `offset + k`, with the difference of
 * the two variants there: (S - (A + B) / 2) . (A - B) / 2, normalized by |(A - B) / 2|^2.
 * Only segments the suspect covers entirely (but for the edge frames) are decided.
 */
export function decideSegments(suspect: Uint8Array, reference: Reference, offset: number): SegmentDecision[] {
  const perSegment = Math.round(reference.segmentSeconds * DETECT_FPS);
  const refFrames = Math.min(framesIn(reference.a), framesIn(reference.b));
  const suspectFrames = framesIn(suspect);
  const out: SegmentDecision[] = [];
  const firstSegment = Math.max(0, Math.ceil((offset - EDGE_FRAMES) / perSegment));
  for (let segment = firstSegment; ; segment++) {
    const from = segment * perSegment + EDGE_FRAMES;
    const to = Math.min((segment + 1) * perSegment - EDGE_FRAMES, refFrames);
    if (from >= refFrames || from - offset >= suspectFrames) break;
    if (to - offset > suspectFrames || from < offset || to <= from) continue;
    let num = 0;
    let den = 0;
    let positive = 0;
    let negative = 0;
    for (let f = from; f < to; f++) {
      const s = (f - offset) * FRAME_BYTES;
      const r = f * FRAME_BYTES;
      let fn = 0;
      let fd = 0;
      for (let i = 0; i < FRAME_BYTES; i++) {
        const a = reference.a[r + i]!;
        const b = reference.b[r + i]!;
        const w = (a - b) / 2;
        fn += (suspect[s + i]! - (a + b) / 2) * w;
        fd += w * w;
      }
      num += fn;
      den += fd;
      if (fd > 0 && fn / fd > DECISION_SCORE) positive++;
      if (fd > 0 && fn / fd < -DECISION_SCORE) negative++;
    }
    const score = den > 0 ? num / den : 0;
    const frames = to - from;
    const decision: Decision =
      score >= DECISION_SCORE && positive >= FRAME_AGREEMENT * frames
        ? 0
        : score <= -DECISION_SCORE && negative >= FRAME_AGREEMENT * frames
          ? 1
          : undefined;
    out.push({ segment, score, decision });
  }
  return out;
}

/** 16 x 9 block means with each frame's own mean removed (brightness changes do not matter). */
function signatures(frames: Uint8Array): Float32Array {
  const n = framesIn(frames);
  const cols = 16;
  const rows = 9;
  const bw = DETECT_WIDTH / cols;
  const bh = DETECT_HEIGHT / rows;
  const out = new Float32Array(n * cols * rows);
  for (let f = 0; f < n; f++) {
    const base = f * FRAME_BYTES;
    let mean = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        let sum = 0;
        for (let y = r * bh; y < (r + 1) * bh; y++) {
          for (let x = c * bw; x < (c + 1) * bw; x++) sum += frames[base + y * DETECT_WIDTH + x]!;
        }
        out[f * cols * rows + r * cols + c] = sum / (bw * bh);
        mean += sum / (bw * bh);
      }
    }
    mean /= cols * rows;
    for (let i = 0; i < cols * rows; i++) out[f * cols * rows + i]! -= mean;
  }
  return out;
}

/**
 * Where the suspect starts in the reference, in frames: the offsets whose pictures match best
 * (mean squared difference of block signatures), and among the closest few the one where the
 * mark correlates most (static slides match at many offsets; the mark changes every segment).
 * Undefined when nothing matches (another video).
 */
export function alignExcerpt(
  suspect: Uint8Array,
  reference: Reference,
): { offset: number; difference: number } | undefined {
  const sig = 16 * 9;
  const s = signatures(suspect);
  const mid = new Uint8Array(reference.a.length);
  for (let i = 0; i < mid.length; i++) mid[i] = (reference.a[i]! + reference.b[i]!) >> 1;
  const r = signatures(mid);
  const sFrames = s.length / sig;
  const rFrames = r.length / sig;
  if (!sFrames || sFrames > rFrames) return undefined;
  const step = Math.max(1, Math.floor(sFrames / 150));
  const scored: { offset: number; difference: number }[] = [];
  for (let offset = 0; offset + sFrames <= rFrames; offset++) {
    let diff = 0;
    let count = 0;
    for (let k = 0; k < sFrames; k += step) {
      const so = k * sig;
      const ro = (offset + k) * sig;
      for (let i = 0; i < sig; i++) {
        const d = s[so + i]! - r[ro + i]!;
        diff += d * d;
      }
      count += sig;
    }
    scored.push({ offset, difference: diff / count });
  }
  scored.sort((x, y) => x.difference - y.difference);
  const best = scored[0]!;
  // A re-encode leaves a few levels of difference; another video, tens.
  if (best.difference > MAX_ALIGN_DIFFERENCE) return undefined;
  const close = scored.filter((c) => c.difference <= best.difference * 1.5 + 1).slice(0, 40);
  let chosen = best;
  let chosenEnergy = -1;
  for (const candidate of close) {
    const energy = decideSegments(suspect, reference, candidate.offset).reduce(
      (sum, d) => sum + Math.abs(d.score),
      0,
    );
    if (energy > chosenEnergy) {
      chosen = candidate;
      chosenEnergy = energy;
    }
  }
  return chosen;
}

/** Mean squared block difference above which an excerpt is not this video (levels squared). */
export const MAX_ALIGN_DIFFERENCE = 60;
