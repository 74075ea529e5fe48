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

/**
 * Where the mark sits during the slot of `nowMs`, as fractions of the picture: in a band above or
 * below the roll number in the centre, clear of the corners' roll numbers and the control bar.
 */
export function markPosition(code: string, nowMs: number): { fx: number; fy: number } {
  const slot = Math.floor(nowMs / MARK_MOVE_MS);
  const band = unit(`${code}:${slot}:band`) < 0.5 ? 0.2 : 0.62;
  return { fx: 0.2 + unit(`${code}:${slot}:x`) * 0.6, fy: band + unit(`${code}:${slot}:y`) * 0.14 };
}

/**
 * Draws the playback session's code small over the picture, moving every MARK_MOVE_MS: light text
 * on a faint dark plate, so it reads on any picture and in a screenshot, without hiding the lecture.
 * `pixelRatio` is canvas pixels per CSS pixel (the text never gets smaller than 20 CSS px).
 */
export function drawSessionMark(
  ctx: CanvasRenderingContext2D,
  code: string,
  rect: Rect,
  pixelRatio: number,
  nowMs: number,
): void {
  if (rect.w <= 0 || rect.h <= 0 || !code) return;
  const text = displayCode(code);
  const size = Math.max(20 * pixelRatio, rect.h * 0.06);
  const { fx, fy } = markPosition(code, nowMs);
  ctx.save();
  ctx.font = `700 ${size}px "DejaVu Sans Mono", ui-monospace, monospace`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const x = rect.x + rect.w * fx;
  const y = rect.y + rect.h * fy;
  // A faint dark plate under light text: readable on a white slide and on a dark one alike.
  const width = ctx.measureText(text).width + size * 0.8;
  const height = size * 1.35;
  ctx.fillStyle = 'rgba(0, 0, 0, 0.6)';
  ctx.fillRect(x - width / 2, y - height / 2, width, height);
  ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
  ctx.fillText(text, x, y);
  ctx.restore();
}
