import type { Cue, CueSettings } from '../../contract/cues';
import type { Rect } from './watermark';

/** A cue laid out over the picture: its font and each line's text, baseline and dark box. */
export interface CueLayout {
  font: string;
  lines: { text: string; x: number; y: number; maxWidth: number; box: Rect }[];
}

/** The cue box's left edge and width, in percent of the picture's width (the spec's position, size and positionAlign). */
export function cueBox(settings: CueSettings): { left: number; width: number } {
  const { align } = settings;
  // 'auto' follows the text alignment: start/left at 0%, end/right at 100%, centred at 50%.
  const position =
    settings.position !== 'auto'
      ? settings.position
      : align === 'left' || align === 'start'
        ? 0
        : align === 'right' || align === 'end'
          ? 100
          : 50;
  const anchor =
    settings.positionAlign !== 'auto'
      ? settings.positionAlign
      : align === 'left' || align === 'start'
        ? 'line-left'
        : align === 'right' || align === 'end'
          ? 'line-right'
          : 'center';
  const room =
    anchor === 'line-left'
      ? 100 - position
      : anchor === 'line-right'
        ? position
        : 2 * Math.min(position, 100 - position);
  const width = Math.min(settings.size, room);
  const left =
    anchor === 'line-left' ? position : anchor === 'line-right' ? position - width : position - width / 2;
  return { left, width };
}

/** `text` broken into lines at most `maxWidth` wide (at spaces; a longer word gets its own line). */
function wrap(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(next).width > maxWidth) {
        lines.push(line);
        line = word;
      } else {
        line = next;
      }
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Lays a cue out over the picture in `rect` as its settings ask: the box's width and place across
 * from `size`, `position` and `align`, its height from `line` (a line number or a percentage, with
 * `lineAlign`; the bottom when 'auto'); text wrapped inside, white on a dark box, sized from the
 * picture's height (`pixelRatio`: canvas pixels per CSS pixel). Nothing goes lower than
 * `reserveBottom` pixels above the canvas's bottom (the control bar). The boxes are what the session
 * mark keeps clear of. Vertical cues are drawn horizontally.
 */
export function layoutCue(
  ctx: CanvasRenderingContext2D,
  cue: Cue,
  rect: Rect,
  reserveBottom: number,
  pixelRatio = 1,
): CueLayout {
  const font = (size: number) => `600 ${size}px system-ui, sans-serif`;
  if (rect.w <= 0 || rect.h <= 0) return { font: font(0), lines: [] };
  const { settings } = cue;
  // Never below 18 CSS px, however small the player.
  const size = Math.max(18 * pixelRatio, rect.h * 0.05);
  const lineHeight = size * 1.3;
  const pad = size * 0.35;
  ctx.save();
  ctx.font = font(size);
  const box = cueBox(settings);
  const boxLeft = rect.x + (rect.w * box.left) / 100;
  const boxWidth = Math.max((rect.w * box.width) / 100 - 2 * pad, size * 2);
  const texts = wrap(ctx, cue.plain, boxWidth);
  const blockHeight = texts.length * lineHeight;
  const highest = rect.y + size * 0.3;
  const lowest = Math.min(rect.y + rect.h, ctx.canvas.height - reserveBottom) - size * 0.6;
  let top: number;
  if (settings.line === 'auto') {
    top = lowest - blockHeight;
  } else if (settings.snapToLines) {
    // Line n counts down from the top (0 first); -1 is the last line, counting up from the bottom.
    top =
      settings.line >= 0
        ? rect.y + settings.line * lineHeight
        : rect.y + rect.h + (settings.line + 1) * lineHeight - blockHeight;
  } else {
    const at = rect.y + (rect.h * settings.line) / 100;
    top =
      settings.lineAlign === 'start'
        ? at
        : settings.lineAlign === 'center'
          ? at - blockHeight / 2
          : at - blockHeight;
  }
  top = Math.max(highest, Math.min(top, lowest - blockHeight));
  const textAlign =
    settings.align === 'left' || settings.align === 'start'
      ? 'left'
      : settings.align === 'right' || settings.align === 'end'
        ? 'right'
        : 'center';
  const lines = texts.map((text, i) => {
    const width = Math.min(ctx.measureText(text).width, boxWidth);
    const x =
      textAlign === 'left'
        ? boxLeft + pad
        : textAlign === 'right'
          ? boxLeft + pad + boxWidth - width
          : boxLeft + pad + (boxWidth - width) / 2;
    const y = top + i * lineHeight;
    return {
      text,
      x,
      y: y + lineHeight / 2,
      maxWidth: boxWidth,
      box: { x: x - pad, y, w: width + 2 * pad, h: lineHeight },
    };
  });
  ctx.restore();
  return { font: font(size), lines };
}

/** Draws a laid-out cue. */
export function drawCue(ctx: CanvasRenderingContext2D, layout: CueLayout): void {
  ctx.save();
  ctx.font = layout.font;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  for (const line of layout.lines) {
    ctx.fillStyle = 'rgba(0, 0, 0, 0.78)';
    ctx.fillRect(line.box.x, line.box.y, line.box.w, line.box.h);
    ctx.fillStyle = '#fff';
    ctx.fillText(line.text, line.x, line.y, line.maxWidth);
  }
  ctx.restore();
}
