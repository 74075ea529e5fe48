import { describe, expect, it } from 'vitest';
import { alignExcerpt, decideSegments, DETECT_FPS, FRAME_BYTES, type Reference } from './detector';

const SEGMENT_SECONDS = 6;
const PER_SEGMENT = SEGMENT_SECONDS * DETECT_FPS;

let seed = 5;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

/** A moving picture (so alignment has something to find) and +-1 patterns that change per segment. */
function fixture(segments: number) {
  const frames = segments * PER_SEGMENT;
  const base = new Uint8Array(frames * FRAME_BYTES);
  const pattern = new Int8Array(frames * FRAME_BYTES);
  const segPattern = Array.from({ length: segments }, () =>
    Int8Array.from({ length: FRAME_BYTES }, () => (random() < 0.5 ? -1 : 1)),
  );
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < FRAME_BYTES; i++) {
      base[f * FRAME_BYTES + i] =
        100 + Math.round(60 * Math.sin((i % 64) / 7 + f / 9 + Math.floor(i / 64) / 5));
      pattern[f * FRAME_BYTES + i] = segPattern[Math.floor(f / PER_SEGMENT)]![i]!;
    }
  }
  const a = base.map((v, i) => v + pattern[i]!);
  const b = base.map((v, i) => v - pattern[i]!);
  return { base, a, b, reference: { a, b, segmentSeconds: SEGMENT_SECONDS } satisfies Reference };
}

/** A copy following `bits` (0 = A, 1 = B), with +-`noise` levels of re-encoding noise. */
function copyOf(fx: ReturnType<typeof fixture>, bits: number[], noise: number): Uint8Array {
  const out = new Uint8Array(fx.a.length);
  for (let i = 0; i < out.length; i++) {
    const segment = Math.floor(i / FRAME_BYTES / PER_SEGMENT);
    const v = bits[segment] ? fx.b[i]! : fx.a[i]!;
    out[i] = Math.max(0, Math.min(255, v + Math.round((random() * 2 - 1) * noise)));
  }
  return out;
}

describe('decideSegments', () => {
  const fx = fixture(8);
  const bits = [0, 1, 1, 0, 1, 0, 0, 1];

  it('reads each segment variant from a noisy copy', () => {
    const decided = decideSegments(copyOf(fx, bits, 3), fx.reference, 0);
    expect(decided.map((d) => d.decision)).toEqual(bits);
    for (const d of decided) expect(Math.abs(d.score)).toBeGreaterThan(0.7);
  });

  it('leaves undecided what is neither (an unmarked copy, or A and B averaged by colluders)', () => {
    const decided = decideSegments(fx.base, fx.reference, 0);
    expect(decided.every((d) => d.decision === undefined)).toBe(true);
    const averaged = fx.a.map((v, i) => (v + fx.b[i]!) >> 1);
    expect(decideSegments(averaged, fx.reference, 0).every((d) => d.decision === undefined)).toBe(true);
  });

  it('decides only the segments an excerpt covers', () => {
    const copy = copyOf(fx, bits, 2);
    const offset = 2 * PER_SEGMENT + 7; // starts inside segment 2
    const excerpt = copy.subarray(offset * FRAME_BYTES, (offset + 3 * PER_SEGMENT) * FRAME_BYTES);
    const decided = decideSegments(excerpt, fx.reference, offset);
    expect(decided.map((d) => d.segment)).toEqual([3, 4]);
    expect(decided.map((d) => d.decision)).toEqual([bits[3], bits[4]]);
  });
});

describe('alignExcerpt', () => {
  it('finds where an excerpt starts, and refuses another video', { timeout: 30_000 }, () => {
    const fx = fixture(8);
    const copy = copyOf(fx, [1, 0, 1, 1, 0, 0, 1, 0], 3);
    const offset = 3 * PER_SEGMENT + 4;
    const excerpt = copy.subarray(offset * FRAME_BYTES, (offset + 2 * PER_SEGMENT) * FRAME_BYTES);
    expect(alignExcerpt(excerpt, fx.reference)?.offset).toBe(offset);
    const other = Uint8Array.from(excerpt, (_, i) => (i * 37) % 251);
    expect(alignExcerpt(other, fx.reference)).toBeUndefined();
  });
});
