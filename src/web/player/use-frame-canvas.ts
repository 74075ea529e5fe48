import { useEffect, useRef, type RefObject } from 'react';
import type { Captions } from './captions';
import { drawOverlays } from './frame-overlays';
import { startRenderer, type Renderer } from './renderer';

const MAX_PIXEL_RATIO = 2;

export interface FrameCanvasElements {
  videoRef: RefObject<HTMLVideoElement | null>;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  /** The player, whose size the canvas follows. */
  rootRef: RefObject<HTMLElement | null>;
}

export interface FrameCanvasContent {
  /** Drawn into every frame: the roll number, or 'Confidential'. */
  watermark: string;
  captions?: Captions;
  /** This playback's session code, drawn small at a moving place. */
  sessionCode?: string;
  /** Whether the control bar shows (captions and the code keep clear of it). */
  controlsShown: boolean;
}

/**
 * Draws every frame of the <video> into the canvas with the watermark, the caption cue and the
 * session code in the same pixels (renderer.ts, frame-overlays.ts); the canvas follows the player's
 * size, and a change of what is drawn redraws at once (also while paused).
 */
export function useFrameCanvas(
  { videoRef, canvasRef, rootRef }: FrameCanvasElements,
  { watermark, captions, sessionCode, controlsShown }: FrameCanvasContent,
) {
  const rendererRef = useRef<Renderer | null>(null);
  const watermarkRef = useRef(watermark);
  const captionsRef = useRef(captions);
  const sessionCodeRef = useRef(sessionCode);
  const controlsShownRef = useRef(controlsShown);
  controlsShownRef.current = controlsShown;

  useEffect(() => {
    const video = videoRef.current;
    const canvas = canvasRef.current;
    const root = rootRef.current;
    if (!video || !canvas || !root) return;
    const renderer = startRenderer(
      video,
      canvas,
      () => watermarkRef.current,
      (ctx, rect, watermarkBoxes) =>
        drawOverlays(ctx, canvas, rect, watermarkBoxes, {
          cssHeight: root.clientHeight,
          time: video.currentTime,
          captions: captionsRef.current,
          sessionCode: sessionCodeRef.current,
          controlsShown: controlsShownRef.current,
          now: Date.now(),
        }),
    );
    rendererRef.current = renderer;
    const resize = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO);
      canvas.width = Math.max(1, Math.round(root.clientWidth * ratio));
      canvas.height = Math.max(1, Math.round(root.clientHeight * ratio));
      renderer.redraw();
    };
    const observer = new ResizeObserver(resize);
    observer.observe(root);
    resize();
    return () => {
      observer.disconnect();
      renderer.stop();
      rendererRef.current = null;
    };
  }, [videoRef, canvasRef, rootRef]);

  useEffect(() => {
    watermarkRef.current = watermark;
    rendererRef.current?.redraw();
  }, [watermark]);

  useEffect(() => {
    captionsRef.current = captions;
    sessionCodeRef.current = sessionCode;
    rendererRef.current?.redraw();
  }, [captions, sessionCode]);

  useEffect(() => rendererRef.current?.redraw(), [controlsShown]);
}
