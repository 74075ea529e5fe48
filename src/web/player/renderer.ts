import { drawWatermark, type Rect } from './watermark';

type FrameVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: () => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/** Marked when the first video frame is drawn; the click that asked for playback marks PLAY_MARK. */
export const FIRST_FRAME_MARK = 'lectern:first-frame';
export const PLAY_MARK = 'lectern:play';

export interface Renderer {
  /** Draws the current frame now (after a resize, a seek while paused, a watermark change). */
  redraw(): void;
  stop(): void;
  /** Frames drawn so far (for tests and the benchmark). */
  readonly frames: number;
}

/** Where a `vw` x `vh` picture sits inside a `cw` x `ch` canvas, letterboxed. */
export function fitRect(cw: number, ch: number, vw: number, vh: number): Rect {
  if (!vw || !vh) return { x: 0, y: 0, w: cw, h: ch };
  const scale = Math.min(cw / vw, ch / vh);
  const w = vw * scale;
  const h = vh * scale;
  return { x: (cw - w) / 2, y: (ch - h) / 2, w, h };
}

/**
 * Draws every video frame into `canvas` with the watermark on top, in the same pixels: the page
 * never shows the <video> itself. Uses requestVideoFrameCallback (once per decoded frame) where
 * the browser has it, else an animation-frame loop that draws while the picture changes.
 */
export function startRenderer(
  video: FrameVideo,
  canvas: HTMLCanvasElement,
  watermark: () => string,
  /** Drawn over the picture after the watermark (captions, the session mark), told where the watermark is. */
  decorate?: (ctx: CanvasRenderingContext2D, rect: Rect, watermarkBoxes: Rect[]) => void,
): Renderer {
  const ctx = canvas.getContext('2d', { alpha: false });
  let stopped = false;
  let frames = 0;

  const draw = () => {
    if (!ctx || stopped) return;
    const { width, height } = canvas;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, width, height);
    const rect = fitRect(width, height, video.videoWidth, video.videoHeight);
    if (video.readyState >= 2 && video.videoWidth) {
      ctx.drawImage(video, rect.x, rect.y, rect.w, rect.h);
      // A User Timing mark for field data and bench/web.ts: when the first picture was shown.
      if (frames++ === 0) performance.mark(FIRST_FRAME_MARK);
    }
    const boxes = drawWatermark(ctx, watermark(), rect);
    decorate?.(ctx, rect, boxes);
  };

  let cancel: () => void;
  if (typeof video.requestVideoFrameCallback === 'function') {
    let handle = 0;
    const onFrame = () => {
      if (stopped) return;
      draw();
      handle = video.requestVideoFrameCallback!(onFrame);
    };
    handle = video.requestVideoFrameCallback(onFrame);
    cancel = () => video.cancelVideoFrameCallback?.(handle);
  } else {
    let handle = 0;
    let lastTime = -1;
    const loop = () => {
      if (stopped) return;
      if (video.currentTime !== lastTime || !video.paused) {
        lastTime = video.currentTime;
        draw();
      }
      handle = requestAnimationFrame(loop);
    };
    handle = requestAnimationFrame(loop);
    cancel = () => cancelAnimationFrame(handle);
  }
  // A paused seek or the first data may not produce a frame callback everywhere: draw on those too.
  const events = ['loadeddata', 'seeked'] as const;
  for (const name of events) video.addEventListener(name, draw);
  draw();

  return {
    redraw: draw,
    stop() {
      stopped = true;
      cancel();
      for (const name of events) video.removeEventListener(name, draw);
    },
    get frames() {
      return frames;
    },
  };
}
