/** Shown instead of the roll number when it cannot be loaded (SPEC.md section 1). */
export const FALLBACK_WATERMARK = 'Confidential';

/** The watermark's text: the student's roll number, or 'Confidential' when it is missing or failed to load. */
export function watermarkText(rollno: string | null | undefined): string {
  const text = rollno?.trim();
  return text ? text : FALLBACK_WATERMARK;
}

export const WATERMARK_COLOR = 'rgba(255, 32, 32, 0.5)';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Draws the watermark over the picture in `rect`: the text large in the centre and smaller in the
 * top-left and bottom-right corners, all sized from the picture so every resolution carries it.
 * Answers the three boxes it covers (the session mark keeps clear of them).
 */
export function drawWatermark(ctx: CanvasRenderingContext2D, text: string, rect: Rect): Rect[] {
  if (rect.w <= 0 || rect.h <= 0) return [];
  ctx.save();
  ctx.fillStyle = WATERMARK_COLOR;
  ctx.textBaseline = 'middle';

  const centre = setFont(ctx, text, Math.max(12, rect.w * 0.06), rect.w * 0.6);
  const centreWidth = ctx.measureText(text).width;
  ctx.textAlign = 'center';
  const cx = rect.x + rect.w / 2;
  const cy = rect.y + rect.h / 2;
  ctx.fillText(text, cx, cy);

  const corner = setFont(ctx, text, Math.max(10, rect.w * 0.035), rect.w * 0.35);
  const cornerWidth = ctx.measureText(text).width;
  const margin = Math.max(6, rect.w * 0.03);
  ctx.textAlign = 'left';
  ctx.fillText(text, rect.x + margin, rect.y + margin + corner / 2);
  ctx.textAlign = 'right';
  ctx.fillText(text, rect.x + rect.w - margin, rect.y + rect.h - margin - corner / 2);
  ctx.restore();
  return [
    { x: cx - centreWidth / 2, y: cy - centre * 0.6, w: centreWidth, h: centre * 1.2 },
    { x: rect.x + margin, y: rect.y + margin, w: cornerWidth, h: corner },
    {
      x: rect.x + rect.w - margin - cornerWidth,
      y: rect.y + rect.h - margin - corner,
      w: cornerWidth,
      h: corner,
    },
  ];
}

/** A bold font of `size` px, shrunk so `text` is at most `maxWidth` wide (long roll numbers). */
function setFont(ctx: CanvasRenderingContext2D, text: string, size: number, maxWidth: number): number {
  ctx.font = `700 ${size}px system-ui, sans-serif`;
  const width = ctx.measureText(text).width;
  if (width <= maxWidth || width === 0) return size;
  const fitted = (size * maxWidth) / width;
  ctx.font = `700 ${fitted}px system-ui, sans-serif`;
  return fitted;
}
