import { Button, Loader, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconPlayerPlayFilled } from '@tabler/icons-react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { PLAYER_CONTROLS_HIDE_MS, PLAYER_SEEK_STEP_S, PLAYER_SPEEDS } from '../../contract/constants';
import { cueAt } from '../../contract/cues';
import { drawCue, layoutCue, type Captions } from './captions';
import { drawSessionMark } from './session-mark';
import { attachStream, type EngineKind } from './engine';
import { describeMedia, logMediaEvents, playerLog } from './player-log';
import classes from './Player.module.css';
import { PlayerControls } from './PlayerControls';
import { startRenderer, type Renderer } from './renderer';
import { useMediaState } from './use-media-state';

export interface VideoPlayerProps {
  /** The HLS master playlist. */
  src: string;
  /** Drawn into every frame: the roll number, or 'Confidential'. */
  watermark: string;
  title: string;
  /** Length from the server, until the stream reports its own. */
  durationHint?: number;
  /** Where to start (resume), in seconds. */
  startAt?: number;
  autoPlay?: boolean;
  /** Receives the <video> element, for progress tracking. */
  mediaRef?: RefObject<HTMLVideoElement | null>;
  onEnded?(): void;
  /** Captions to draw (from useCaptions); the CC button shows when the video has any. */
  captions?: Captions;
  /** This playback's session code, drawn small at a moving place (docs/CAPTIONS.md "Trace a leak"). */
  sessionCode?: string;
  /** A fatal playback error, as a short code (hls.js's details, `media-error-N`): for health reports. */
  onPlaybackError?(code: string): void;
}

/** The control bar's height in CSS pixels: captions sit above it while it shows. */
const CONTROLS_HEIGHT = 84;

const NEXT_SPEED = (rate: number) =>
  PLAYER_SPEEDS[(PLAYER_SPEEDS.indexOf(rate as (typeof PLAYER_SPEEDS)[number]) + 1) % PLAYER_SPEEDS.length]!;
const MAX_PIXEL_RATIO = 2;

/** Whether a key press belongs to something that handles keys itself (fields, the volume slider). */
function ownsKeys(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    !!target.closest(
      'input, textarea, select, [contenteditable="true"], [data-volume], [role="menu"], [role="dialog"]',
    )
  );
}

/**
 * The course video player: the stream decodes in a hidden <video>, and every frame is drawn on a
 * canvas with the watermark in the same pixels. Custom controls, keyboard (Space, Left/Right 5 s),
 * fullscreen, auto-hiding controls and a buffering spinner.
 */
export function VideoPlayer({
  src,
  watermark,
  title,
  durationHint = 0,
  startAt = 0,
  autoPlay = false,
  mediaRef,
  onEnded,
  captions,
  sessionCode,
  onPlaybackError,
}: VideoPlayerProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const rendererRef = useRef<Renderer | null>(null);
  const watermarkRef = useRef(watermark);
  const media = useMediaState(videoRef);
  const [engine, setEngine] = useState<EngineKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [fullscreen, setFullscreen] = useState(false);
  const [pseudoFullscreen, setPseudoFullscreen] = useState(false);
  const [active, setActive] = useState(true);
  const [focusInControls, setFocusInControls] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const hintId = useId();
  const captionsRef = useRef(captions);
  const sessionCodeRef = useRef(sessionCode);
  const onErrorRef = useRef(onPlaybackError);
  onErrorRef.current = onPlaybackError;
  const controlsShownRef = useRef(true);
  const [announcement, setAnnouncement] = useState('');

  const setVideo = useCallback(
    (element: HTMLVideoElement | null) => {
      videoRef.current = element;
      if (mediaRef) mediaRef.current = element;
    },
    [mediaRef],
  );

  // Attach the stream (hls.js, or native HLS where there is no MSE; see engine.ts).
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    let detach: (() => void) | undefined;
    const explain = async () => {
      // The media element hides HTTP details: ask the server why (no access, still processing…).
      try {
        const res = await fetch(src, { credentials: 'same-origin' });
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        return res.ok ? null : (body.message ?? null);
      } catch {
        return 'The connection to the server was lost.';
      }
    };
    const fail = async (code: string) => {
      onErrorRef.current?.(code);
      const reason = await explain();
      if (!cancelled) setError(reason ?? 'This video could not be played.');
    };
    const start = async () => {
      try {
        const attached = await attachStream(video, src, { onFatal: (details) => void fail(details) });
        if (cancelled) return attached.destroy();
        detach = attached.destroy;
        setEngine(attached.kind);
        playerLog(`attached ${attached.kind} ${describeMedia(video)}`);
        if (autoPlay)
          video.play().then(
            () => playerLog(`autoplay resolved ${describeMedia(video)}`),
            // blocked autoplay leaves the big play button
            (err: unknown) => playerLog(`autoplay rejected ${String(err)} ${describeMedia(video)}`),
          );
      } catch (err) {
        if (cancelled) return;
        onErrorRef.current?.('unsupported');
        setError((err as Error).message);
      }
    };
    const onLoaded = () => {
      if (startAt > 0 && startAt < video.duration - 1) video.currentTime = startAt;
    };
    const onError = () => {
      if (cancelled || !video.error) return;
      void fail(`media-error-${video.error.code}`);
    };
    video.addEventListener('loadedmetadata', onLoaded, { once: true });
    video.addEventListener('error', onError);
    const unlog = logMediaEvents(video);
    setError(null);
    void start();
    return () => {
      cancelled = true;
      unlog();
      video.removeEventListener('loadedmetadata', onLoaded);
      video.removeEventListener('error', onError);
      detach?.();
    };
    // startAt and autoPlay only matter when a stream is attached.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src, attempt]);

  // Draw every frame into the canvas; the canvas follows the player's size.
  useEffect(() => {
    const video = videoRef.current;
    const canvas = canvasRef.current;
    const root = rootRef.current;
    if (!video || !canvas || !root) return;
    const renderer = startRenderer(
      video,
      canvas,
      () => watermarkRef.current,
      (ctx, rect, watermarkBoxes) => {
        const ratio = canvas.height / Math.max(1, root.clientHeight);
        const shown = captionsRef.current;
        const cue = shown?.language ? cueAt(shown.cues, video.currentTime) : undefined;
        const reserve = controlsShownRef.current ? CONTROLS_HEIGHT * ratio : canvas.height * 0.03;
        const layout = cue ? layoutCue(ctx, cue, rect, reserve, ratio) : undefined;
        // The code never goes under the caption or the control bar while it shows.
        const controls = {
          x: 0,
          y: canvas.height - CONTROLS_HEIGHT * ratio,
          w: canvas.width,
          h: CONTROLS_HEIGHT * ratio,
        };
        const avoid = [
          ...(controlsShownRef.current ? [controls] : []),
          ...(layout?.lines.map((line) => line.box) ?? []),
        ];
        if (sessionCodeRef.current)
          drawSessionMark(ctx, sessionCodeRef.current, rect, ratio, Date.now(), {
            avoid,
            prefer: watermarkBoxes,
          });
        if (layout) drawCue(ctx, layout);
      },
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
  }, []);

  useEffect(() => {
    watermarkRef.current = watermark;
    rendererRef.current?.redraw();
  }, [watermark]);

  useEffect(() => {
    captionsRef.current = captions;
    sessionCodeRef.current = sessionCode;
    rendererRef.current?.redraw();
  }, [captions, sessionCode]);

  // State changes a screen reader user cannot see, said once in the live region.
  const captionLabel = captions?.tracks.find((t) => t.language === captions.language)?.label;
  const said = useRef({ playing: media.playing, muted: media.muted, captions: captionLabel });
  useEffect(() => {
    const before = said.current;
    said.current = { playing: media.playing, muted: media.muted, captions: captionLabel };
    if (before.playing !== media.playing) setAnnouncement(media.playing ? 'Playing' : 'Paused');
    else if (before.muted !== media.muted) setAnnouncement(media.muted ? 'Muted' : 'Sound on');
    else if (before.captions !== captionLabel)
      setAnnouncement(captionLabel ? `Captions on: ${captionLabel}` : 'Captions off');
  }, [media.playing, media.muted, captionLabel]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === rootRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Controls hide after 3 s without mouse, touch or key activity while playing.
  const poke = useCallback(() => {
    setActive(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setActive(false), PLAYER_CONTROLS_HIDE_MS);
  }, []);
  useEffect(() => {
    poke();
    return () => clearTimeout(hideTimer.current);
  }, [poke]);

  const togglePlay = useCallback(() => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended)
      video.play().then(
        () => playerLog(`play resolved ${describeMedia(video)}`),
        (err: unknown) => playerLog(`play rejected ${String(err)} ${describeMedia(video)}`),
      );
    else video.pause();
  }, []);

  const seekBy = useCallback((delta: number) => {
    const video = videoRef.current;
    if (!video) return;
    const end = Number.isFinite(video.duration) ? video.duration : Number.POSITIVE_INFINITY;
    video.currentTime = Math.min(Math.max(video.currentTime + delta, 0), end);
  }, []);

  const handleKey = useCallback(
    (event: { key: string; target: EventTarget | null; preventDefault(): void; stopPropagation(): void }) => {
      if (ownsKeys(event.target)) return false;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (key === ' ' || key === 'Spacebar' || key === 'k') {
        // A focused control button is pressed by Space, as any button is.
        if (key !== 'k' && event.target instanceof HTMLElement && event.target.closest('button'))
          return false;
        event.preventDefault();
        togglePlay();
      } else if (key === 'f') {
        event.preventDefault();
        toggleFullscreenRef.current();
      } else if (key === 'm') {
        event.preventDefault();
        toggleMuteRef.current();
      } else if (key === 'c' && captionsRef.current?.tracks.length) {
        event.preventDefault();
        captionsRef.current.toggle();
      } else if (key === 'ArrowRight' || key === 'ArrowLeft') {
        event.preventDefault();
        event.stopPropagation(); // the seek slider would otherwise move by its own small step
        seekBy(key === 'ArrowRight' ? PLAYER_SEEK_STEP_S : -PLAYER_SEEK_STEP_S);
      } else {
        return false;
      }
      poke();
      return true;
    },
    [togglePlay, seekBy, poke],
  );

  // Keys pressed while nothing in particular has focus (the page itself) control the player too.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target === document.body || event.target === document.documentElement) handleKey(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handleKey]);

  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    handleKey(event);
  };

  const toggleFullscreen = () => {
    const root = rootRef.current;
    if (!root) return;
    if (document.fullscreenElement) {
      void document.exitFullscreen();
    } else if (pseudoFullscreen) {
      setPseudoFullscreen(false);
    } else if (document.fullscreenEnabled && root.requestFullscreen) {
      root.requestFullscreen().catch(() => setPseudoFullscreen(true));
    } else {
      setPseudoFullscreen(true);
    }
  };

  const setVolume = (volume: number) => {
    const video = videoRef.current;
    if (!video) return;
    video.volume = volume;
    video.muted = volume === 0;
  };

  const toggleMute = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.muted || video.volume === 0) {
      if (video.volume === 0) video.volume = 0.5;
      video.muted = false;
    } else {
      video.muted = true;
    }
  };

  // The key handler is made once; these point it at the current closures.
  const toggleFullscreenRef = useRef(toggleFullscreen);
  toggleFullscreenRef.current = toggleFullscreen;
  const toggleMuteRef = useRef(toggleMute);
  toggleMuteRef.current = toggleMute;

  const cycleSpeed = () => {
    const video = videoRef.current;
    if (video) video.playbackRate = NEXT_SPEED(video.playbackRate);
  };

  const duration = media.duration || durationHint;
  const controlsVisible = active || !media.playing || focusInControls;
  controlsShownRef.current = controlsVisible;
  useEffect(() => rendererRef.current?.redraw(), [controlsVisible]);
  const state = error ? 'error' : media.buffering ? 'buffering' : media.playing ? 'playing' : 'paused';

  return (
    <div
      ref={rootRef}
      className={classes.root}
      role="region"
      aria-label={`Video player: ${title}`}
      aria-describedby={hintId}
      tabIndex={0}
      data-engine={engine ?? undefined}
      data-state={state}
      data-fullscreen={fullscreen || pseudoFullscreen || undefined}
      data-pseudo-fullscreen={pseudoFullscreen || undefined}
      data-idle={!controlsVisible || undefined}
      onMouseMove={poke}
      onTouchStart={poke}
      onKeyDownCapture={onKeyDownCapture}
    >
      <VisuallyHidden id={hintId}>
        Space or K plays or pauses. The left and right arrow keys jump 5 seconds. F toggles fullscreen, M
        mutes{captions?.tracks.length ? ', C turns captions on or off' : ''}.
      </VisuallyHidden>
      <VisuallyHidden role="status" aria-live="polite" data-testid="player-announcer">
        {announcement}
      </VisuallyHidden>
      <video
        ref={setVideo}
        className={classes.video}
        playsInline
        preload="auto"
        disablePictureInPicture
        disableRemotePlayback
        controlsList="nodownload noremoteplayback"
        aria-hidden="true"
        tabIndex={-1}
        onEnded={onEnded}
      />
      <canvas
        ref={canvasRef}
        className={classes.canvas}
        role="img"
        aria-label={`${title}: video with watermark ${watermark}`}
        onClick={togglePlay}
        onDoubleClick={toggleFullscreen}
      />
      {error ? (
        <div className={classes.center}>
          <div className={classes.message} role="alert">
            <Text fw={600}>{error}</Text>
            <Button mt="sm" size="xs" color="red" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          </div>
        </div>
      ) : media.buffering ? (
        <div className={classes.center} role="status" aria-label="Loading video">
          <Loader color="white" size="lg" />
        </div>
      ) : !media.playing ? (
        <div className={classes.center}>
          <UnstyledButton
            className={classes.bigPlay}
            onClick={togglePlay}
            aria-label={media.ended ? 'Replay video' : 'Play video'}
          >
            <IconPlayerPlayFilled size={34} />
          </UnstyledButton>
        </div>
      ) : null}
      <PlayerControls
        media={media}
        duration={duration}
        fullscreen={fullscreen || pseudoFullscreen}
        visible={controlsVisible}
        onTogglePlay={togglePlay}
        onSeek={(seconds) => {
          const video = videoRef.current;
          if (video) video.currentTime = seconds;
        }}
        onToggleMute={toggleMute}
        onVolume={setVolume}
        onCycleSpeed={cycleSpeed}
        onToggleFullscreen={toggleFullscreen}
        onFocusChange={setFocusInControls}
        captions={captions}
      />
    </div>
  );
}
