import { displayCode } from '../../contract/playback';
import type { Rect } from './watermark';

/** The mark moves to a new place this often (the issue asks for every 10-30 s). */
export const MARK_MOVE_MS = 15_000;

/** A number in [0, 1) from `seed` (FNV-1a and a final mix): the same code and slot, the same place. */
function unit(seed: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 2 ** 32;
}

/** Whether `a` and `b` come closer than `margin` (touching at exactly `margin` is clear). */
export function overlaps(a: Rect, b: Rect, margin = 0): boolean {
  return (
    a.x < b.x + b.w + margin &&
    b.x < a.x + a.w + margin &&
    a.y < b.y + b.h + margin &&
    b.y < a.y + a.h + margin
  );
}

function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** What the mark must keep clear of, in canvas pixels. */
export interface MarkScene {
  /** The picture (the mark stays inside it). */
  picture: Rect;
  /** The mark's plate. */
  size: { w: number; h: number };
  /** Never covered: the caption boxes drawn now and the control bar. */
  avoid: readonly Rect[];
  /** Kept clear when there is room: the roll-number watermark in the centre and the corners. */
  prefer?: readonly Rect[];
  /** Clearance around every obstacle. */
  margin: number;
}

/** Smaller plates tried, in turn, when a crowded picture (a phone, a long cue) has no room for the full one. */
const SHRINK = [1, 0.85, 0.7];

/**
 * Where the mark's plate goes during the slot of `nowMs`: a place picked from the code and the slot
 * (so it moves every MARK_MOVE_MS and differs between students), the first of a seeded sequence
 * that is clear of the captions and controls (and of the watermark, when the picture has room for
 * both). Where the full plate fits nowhere, a smaller one (down to 70%) is tried; only a picture
 * with no clear place even for that gets the least covered one. The answer's size is the plate's.
 */
export function placeMark(code: string, nowMs: number, scene: MarkScene): Rect {
  const { picture, avoid, prefer = [], margin } = scene;
  const slot = Math.floor(nowMs / MARK_MOVE_MS);
  const candidates = (scale: number): Rect[] => {
    const size = { w: scene.size.w * scale, h: scene.size.h * scale };
    const left = picture.x + margin;
    const top = picture.y + margin;
    const spanX = Math.max(0, picture.w - 2 * margin - size.w);
    const spanY = Math.max(0, picture.h - 2 * margin - size.h);
    const at = (fx: number, fy: number): Rect => ({ x: left + fx * spanX, y: top + fy * spanY, ...size });
    // Seeded places first (these make the movement), then a scan of the picture from a seeded start.
    const places: Rect[] = [];
    for (let k = 0; k < 12; k++)
      places.push(at(unit(`${code}:${slot}:${k}:x`), unit(`${code}:${slot}:${k}:y`)));
    const columns = 1 + Math.ceil(spanX / Math.max(4, size.h / 4));
    const rows = 1 + Math.ceil(spanY / Math.max(4, size.h / 8));
    const start = Math.floor(unit(`${code}:${slot}:scan`) * columns * rows);
    for (let i = 0; i < columns * rows; i++) {
      const cell = (start + i) % (columns * rows);
      places.push(
        at((cell % columns) / Math.max(1, columns - 1), Math.floor(cell / columns) / Math.max(1, rows - 1)),
      );
    }
    return places;
  };

  const clear = (place: Rect, obstacles: readonly Rect[]) =>
    obstacles.every((o) => !overlaps(place, o, margin));
  const everything = [...avoid, ...prefer];
  const full = candidates(1);
  const best = full.find((p) => clear(p, everything)) ?? full.find((p) => clear(p, avoid));
  if (best) return best;
  for (const scale of SHRINK.slice(1)) {
    const smaller = candidates(scale).find((p) => clear(p, avoid));
    if (smaller) return smaller;
  }
  const covered = (p: Rect) => avoid.reduce((sum, o) => sum + overlapArea(p, o), 0);
  return candidates(SHRINK.at(-1)!).reduce((a, b) => (covered(b) < covered(a) ? b : a));
}

let lastPlace: { key: string; place: Rect } = { key: '', place: { x: 0, y: 0, w: 0, h: 0 } };

/** The mark's font size in canvas pixels: never smaller than 20 CSS px (14 when shrunk in a crowded picture). */
const markFontSize = (picture: Rect, pixelRatio: number) => Math.max(20 * pixelRatio, picture.h * 0.06);

/**
 * Draws the playback session's code small over the picture, moving every MARK_MOVE_MS and never
 * under `avoid` (captions, controls): light text on a faint dark plate, so it reads on any picture
 * and in a screenshot, without hiding the lecture. `pixelRatio` is canvas pixels per CSS pixel.
 * Answers where it was drawn.
 */
export function drawSessionMark(
  ctx: CanvasRenderingContext2D,
  code: string,
  picture: Rect,
  pixelRatio: number,
  nowMs: number,
  obstacles: { avoid: readonly Rect[]; prefer: readonly Rect[] } = { avoid: [], prefer: [] },
): Rect | undefined {
  if (picture.w <= 0 || picture.h <= 0 || !code) return undefined;
  const text = displayCode(code);
  const size = markFontSize(picture, pixelRatio);
  ctx.save();
  ctx.font = `700 ${size}px "DejaVu Sans Mono", ui-monospace, monospace`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // A faint dark plate under light text: readable on a white slide and on a dark one alike.
  const plate = { w: ctx.measureText(text).width + size * 0.8, h: size * 1.35 };
  const scene = { picture, size: plate, ...obstacles, margin: Math.max(8 * pixelRatio, size * 0.3) };
  // Every frame asks; the answer changes only with the slot, a cue or the bar.
  const key = JSON.stringify([code, Math.floor(nowMs / MARK_MOVE_MS), scene]);
  if (key !== lastPlace.key) lastPlace = { key, place: placeMark(code, nowMs, scene) };
  const place = lastPlace.place;
  ctx.fillStyle = 'rgba(0, 0, 0, 0.6)';
  ctx.fillRect(place.x, place.y, place.w, place.h);
  // A crowded picture may have given a smaller plate: the text shrinks with it.
  if (place.h < plate.h)
    ctx.font = `700 ${(size * place.h) / plate.h}px "DejaVu Sans Mono", ui-monospace, monospace`;
  ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
  ctx.fillText(text, place.x + place.w / 2, place.y + place.h / 2);
  ctx.restore();
  return place;
}
