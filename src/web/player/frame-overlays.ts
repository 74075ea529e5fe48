import { cueAt } from '../../contract/cues';
import { drawCue, layoutCue } from './caption-layout';
import type { Captions } from './captions';
import { drawSessionMark } from './session-mark';
import type { Rect } from './watermark';

/** The control bar's height in CSS pixels: captions sit above it while it shows. */
export const CONTROLS_HEIGHT = 84;

export interface OverlayState {
  /** The player's height in CSS pixels (the canvas has device pixels). */
  cssHeight: number;
  /** The video's current time, for the cue shown. */
  time: number;
  captions?: Captions;
  sessionCode?: string;
  controlsShown: boolean;
  /** For the session mark's movement. */
  now: number;
}

/**
 * What is drawn over the picture after the watermark: the caption cue shown (above the control bar
 * while it shows) and the session code, which never goes under the caption or the control bar.
 */
export function drawOverlays(
  ctx: CanvasRenderingContext2D,
  canvas: { width: number; height: number },
  rect: Rect,
  watermarkBoxes: Rect[],
  state: OverlayState,
) {
  const ratio = canvas.height / Math.max(1, state.cssHeight);
  const shown = state.captions;
  const cue = shown?.language ? cueAt(shown.cues, state.time) : undefined;
  const reserve = state.controlsShown ? CONTROLS_HEIGHT * ratio : canvas.height * 0.03;
  const layout = cue ? layoutCue(ctx, cue, rect, reserve, ratio) : undefined;
  const controls = {
    x: 0,
    y: canvas.height - CONTROLS_HEIGHT * ratio,
    w: canvas.width,
    h: CONTROLS_HEIGHT * ratio,
  };
  const avoid = [
    ...(state.controlsShown ? [controls] : []),
    ...(layout?.lines.map((line) => line.box) ?? []),
  ];
  if (state.sessionCode)
    drawSessionMark(ctx, state.sessionCode, rect, ratio, state.now, { avoid, prefer: watermarkBoxes });
  if (layout) drawCue(ctx, layout);
}
