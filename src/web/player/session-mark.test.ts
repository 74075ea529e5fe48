import { describe, expect, it } from 'vitest';
import { MARK_MOVE_MS, overlaps, placeMark, type MarkScene } from './session-mark';
import type { Rect } from './watermark';

/** A small seeded generator, so a failure replays. */
function random(seed: number) {
  return () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

/**
 * A player canvas as VideoPlayer lays it out: the picture filling a `w` x `h` CSS px player at
 * `ratio` device pixels, the 84 CSS px control bar, the roll number's three boxes, the mark's plate
 * (20 CSS px DejaVu Sans Mono or 6% of the height) and the caption lines (5% of the height, at
 * least 18 CSS px) placed as a cue's settings put them.
 */
function scene(w: number, h: number, ratio: number, next: () => number): MarkScene & { captions: Rect[] } {
  const picture = { x: 0, y: 0, w: w * ratio, h: h * ratio };
  // While playing the bar hides after 3 s and captions drop to 3% above the bottom.
  const barShown = next() < 0.5;
  const controls = { x: 0, y: picture.h - 84 * ratio, w: picture.w, h: 84 * ratio };
  const floor = barShown ? controls.y : picture.h * 0.97;
  const centre = Math.max(12, picture.w * 0.06);
  const corner = Math.max(10, picture.w * 0.035);
  const inset = Math.max(6, picture.w * 0.03);
  const prefer = [
    { x: picture.w * 0.35, y: picture.h / 2 - centre * 0.6, w: picture.w * 0.3, h: centre * 1.2 },
    { x: inset, y: inset, w: picture.w * 0.2, h: corner },
    { x: picture.w * 0.8 - inset, y: picture.h - inset - corner, w: picture.w * 0.2, h: corner },
  ];
  const font = Math.max(20 * ratio, picture.h * 0.06);
  const size = { w: 9 * 0.6 * font + font * 0.8, h: font * 1.35 };

  const line = Math.max(18 * ratio, picture.h * 0.05) * 1.3;
  const where = next();
  // Up to three lines at the bottom above the bar (no settings) or at the top (line:10%); up to two
  // anywhere (line:N%). (Three lines in the middle of a phone's picture with the bar shown leave no
  // room anywhere: the last test.)
  const count = 1 + Math.floor(next() * (where < 0.75 ? 3 : 2));
  const top =
    where < 0.5
      ? floor - line * 0.5 - count * line
      : where < 0.75
        ? picture.h * 0.1
        : next() * (floor - count * line);
  const captions: Rect[] = [];
  const align = next();
  for (let i = 0; i < count; i++) {
    const width = picture.w * (0.2 + next() * 0.7);
    const x =
      align < 0.6 ? (picture.w - width) / 2 : align < 0.8 ? picture.w * 0.05 : picture.w * 0.95 - width;
    captions.push({ x, y: top + i * line, w: width, h: line });
  }
  return {
    picture,
    size,
    avoid: barShown ? [controls, ...captions] : captions,
    prefer,
    margin: Math.max(8 * ratio, font * 0.3),
    captions,
  };
}

const inside = (inner: Rect, outer: Rect) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.w <= outer.x + outer.w &&
  inner.y + inner.h <= outer.y + outer.h;

describe('where the session mark goes', () => {
  const t0 = 1_700_000_000_000 - (1_700_000_000_000 % MARK_MOVE_MS);

  it.each([
    ['the course page at 1280 px', 820, 461, 1],
    ['fullscreen at 1920 px', 1920, 1080, 1],
    ['a 390 px phone', 390, 219, 2],
    ['a 768 px tablet', 736, 414, 2],
  ])('on %s it never touches a caption or the controls, and stays in the picture', (_, w, h, ratio) => {
    const next = random(w * 31 + h);
    let clearOfWatermark = 0;
    for (let i = 0; i < 500; i++) {
      const s = scene(w, h, ratio, next);
      const code = `CODE${i % 17}XYZ`;
      const mark = placeMark(code, t0 + i * MARK_MOVE_MS, s);
      expect(inside(mark, s.picture)).toBe(true);
      for (const obstacle of s.avoid) expect(overlaps(mark, obstacle, s.margin)).toBe(false);
      if (s.prefer!.every((box) => !overlaps(mark, box, s.margin))) clearOfWatermark++;
    }
    // The roll number is kept clear too wherever the picture has room (all but the odd crowded case).
    expect(clearOfWatermark).toBeGreaterThan(450);
  });

  it('stays put within a slot, moves between slots and differs between codes', () => {
    const s = scene(820, 461, 1, random(7));
    expect(placeMark('7K3MQ9XD', t0, s)).toEqual(placeMark('7K3MQ9XD', t0 + MARK_MOVE_MS - 1, s));
    const places = new Set<string>();
    for (let slot = 0; slot < 200; slot++) {
      const { x, y } = placeMark('7K3MQ9XD', t0 + slot * MARK_MOVE_MS, s);
      places.add(`${Math.round(x)},${Math.round(y)}`);
    }
    expect(places.size).toBeGreaterThan(150);
    expect(placeMark('AAAAAAAA', t0, s)).not.toEqual(placeMark('BBBBBBBB', t0, s));
  });

  it('moves off a caption that appears mid-slot, to a place clear of it', () => {
    const base = scene(820, 461, 1, random(3));
    const free = { ...base, avoid: base.avoid.slice(0, 1) };
    const before = placeMark('7K3MQ9XD', t0, free);
    // A caption box right where the mark was.
    const cue = { x: before.x - 10, y: before.y - 5, w: before.w + 20, h: before.h + 10 };
    const after = placeMark('7K3MQ9XD', t0, { ...free, avoid: [...free.avoid, cue] });
    expect(overlaps(after, cue, base.margin)).toBe(false);
  });

  it('in a crowded picture, shrinks the plate to fit, and only with no room at all takes the least covered place', () => {
    const picture = { x: 0, y: 0, w: 300, h: 100 };
    const size = { w: 100, h: 40 };
    // 22 px of free height: 70% of the plate (28 px) does not fit, nor the full one.
    const wall = { x: 0, y: 0, w: 300, h: 70 };
    const covered = placeMark('7K3MQ9XD', t0, { picture, size, avoid: [wall], margin: 4 });
    expect(inside(covered, picture)).toBe(true);
    expect(covered.y).toBeGreaterThan(60); // as low as the picture allows
    // 36 px free: the plate at 70-85% fits, clear.
    const lower = { x: 0, y: 0, w: 300, h: 56 };
    const shrunk = placeMark('7K3MQ9XD', t0, { picture, size, avoid: [lower], margin: 4 });
    expect(shrunk.h).toBeLessThan(size.h);
    expect(shrunk.h).toBeGreaterThanOrEqual(size.h * 0.7);
    expect(overlaps(shrunk, lower, 4)).toBe(false);
  });
});
