import { VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import type { Captions } from './captions';
import { useMediaActions } from './media-actions';
import { HOLD_REATTACHES, holdResumePoint } from './hold';
import classes from './Player.module.css';
import { PlayerControls, type SeekMarker } from './PlayerControls';
import { PlayerOverlay } from './PlayerOverlay';
import { useAnnouncements } from './use-announcements';
import { useControlsVisibility } from './use-controls-visibility';
import { useFrameCanvas } from './use-frame-canvas';
import { useFullscreen } from './use-fullscreen';
import { useMediaState } from './use-media-state';
import { keyHint, standardKeys, usePlayerKeys, type KeyBinding } from './use-player-keys';
import { useRecovery } from './use-recovery';
import { useStream } from './use-stream';
import { LiveBadge } from './LiveBadge';
import { useLiveEdge } from './use-live-edge';

export interface VideoPlayerProps {
  /** The HLS master playlist. */
  src: string;
  /** Drawn into every frame: the roll number, or 'Confidential'. */
  watermark: string;
  title: string;
  /** Length from the server, until the stream reports its own. */
  durationHint?: number;
  /** Where to start (resume, or a start time from a link), in seconds. */
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
  /** Keys besides the standard ones (use-player-keys.ts), with their hints for screen readers. */
  keys?: readonly KeyBinding[];
  /** Points marked on the seek bar; none by default. */
  markers?: readonly SeekMarker[];
  /** Shown over the picture inside the player, so fullscreen keeps it (a checkpoint's question). */
  overlay?: ReactNode;
  /**
   * The moment the server holds the lecture at (the first required checkpoint not passed), null for
   * none, undefined while not known (the checkpoints on their way): a key refused there, or the
   * failure it causes, brings the picture back to it (player/hold.ts), once it is known.
   */
  holdAt?: number | null;
}

const NO_KEYS: readonly KeyBinding[] = [];

/**
 * The course video player: the stream decodes in a hidden <video>, and every frame is drawn on a
 * canvas with the watermark in the same pixels. Custom controls, keyboard (Space, Left/Right 5 s),
 * fullscreen, auto-hiding controls and a buffering spinner. Each concern is a hook of its own:
 * use-stream (engine and source), use-recovery (failures, Try again), use-frame-canvas (watermark,
 * captions and session code in the picture), media-actions, use-player-keys, use-fullscreen and
 * use-controls-visibility (controls and keys), use-announcements (the live region).
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
  keys = NO_KEYS,
  markers,
  overlay,
  holdAt,
}: VideoPlayerProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const hintId = useId();
  const setVideo = useCallback(
    (element: HTMLVideoElement | null) => {
      videoRef.current = element;
      if (mediaRef) mediaRef.current = element;
    },
    [mediaRef],
  );

  const media = useMediaState(videoRef);
  const hold = useHold(videoRef, holdAt);
  const recovery = useRecovery(onPlaybackError, hold.failed);
  const liveEdge = useLiveEdge(videoRef);
  const engine = useStream(
    videoRef,
    {
      src,
      startAt: hold.reattachAt ?? startAt,
      durationHint,
      autoPlay,
      onLive: liveEdge.onLive,
      onHeld: hold.refused,
    },
    recovery,
  );
  const controls = useControlsVisibility(media.playing);
  useFrameCanvas(
    { videoRef, canvasRef, rootRef },
    { watermark, captions, sessionCode, controlsShown: controls.visible },
  );
  const announcement = useAnnouncements(media.playing, media.muted, captions);
  const fullscreen = useFullscreen(rootRef);
  const actions = useMediaActions(videoRef);
  const bindings = useMemo(
    () => [...standardKeys({ ...actions, toggleFullscreen: fullscreen.toggle, captions }), ...keys],
    [actions, fullscreen.toggle, captions, keys],
  );
  const onKeyDownCapture = usePlayerKeys(bindings, controls.poke);

  const isFullscreen = fullscreen.native || fullscreen.pseudo;
  // A phone's 16:9 picture is too short for a question and its answer: below the picture there,
  // over it in fullscreen and on wider screens (where the picture is what the question is about).
  const phone = useMediaQuery('(max-width: 36em)');
  const overlayBelow = !!overlay && !!phone && !isFullscreen;
  const state = recovery.error
    ? 'error'
    : media.buffering
      ? 'buffering'
      : media.playing
        ? 'playing'
        : 'paused';

  return (
    <>
      <div
        ref={rootRef}
        className={classes.root}
        role="region"
        aria-label={`Video player: ${title}`}
        aria-describedby={hintId}
        tabIndex={0}
        data-engine={engine ?? undefined}
        data-state={state}
        data-live={liveEdge.live || undefined}
        data-fullscreen={isFullscreen || undefined}
        data-pseudo-fullscreen={fullscreen.pseudo || undefined}
        data-idle={!controls.visible || undefined}
        onMouseMove={controls.poke}
        onTouchStart={controls.poke}
        onKeyDownCapture={onKeyDownCapture}
      >
        <VisuallyHidden id={hintId}>{keyHint(!!captions?.tracks.length, keys)}</VisuallyHidden>
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
          onClick={actions.togglePlay}
          onDoubleClick={fullscreen.toggle}
        />
        <PlayerOverlay
          error={recovery.error}
          buffering={media.buffering}
          playing={media.playing}
          ended={media.ended}
          onRetry={recovery.retry}
          onPlay={actions.togglePlay}
        />
        {liveEdge.live && <LiveBadge behind={liveEdge.behind} onBackToLive={liveEdge.backToLive} />}
        <PlayerControls
          media={media}
          videoRef={videoRef}
          duration={media.duration || durationHint}
          fullscreen={isFullscreen}
          visible={controls.visible}
          actions={actions}
          onToggleFullscreen={fullscreen.toggle}
          onFocusChange={controls.setFocusInside}
          captions={captions}
          markers={markers}
        />
        {!overlayBelow && overlay}
      </div>
      {overlayBelow && (
        <div className={classes.below} data-player-below>
          {overlay}
        </div>
      )}
    </>
  );
}

/**
 * The checkpoint hold in the player: a key refused brings the picture back to `holdAt`; a fatal
 * error while the lecture is held (the browser's own HLS meets the refused key as a media error) is
 * taken for the hold a few times and the stream attached again at its moment, not shown as an error.
 * A key refused while `holdAt` is not known yet is answered once it is.
 */
function useHold(videoRef: RefObject<HTMLVideoElement | null>, holdAt: number | null | undefined) {
  const holdRef = useRef(holdAt);
  holdRef.current = holdAt;
  const [reattachAt, setReattachAt] = useState<number | null>(null);
  const reattaches = useRef(0);
  const waiting = useRef<((resumeAt: number | null) => void)[]>([]);
  useEffect(() => {
    reattaches.current = 0;
    if (holdAt === undefined) return;
    const video = videoRef.current;
    for (const answer of waiting.current.splice(0)) answer(video ? holdResumePoint(video, holdAt) : null);
  }, [holdAt, videoRef]);
  const refused = useCallback((): number | null | Promise<number | null> => {
    const video = videoRef.current;
    if (!video) return null;
    if (holdRef.current === undefined) return new Promise((answer) => void waiting.current.push(answer));
    return holdResumePoint(video, holdRef.current);
  }, [videoRef]);
  const failed = useCallback(() => {
    const at = holdRef.current;
    if (at === null || at === undefined || reattaches.current >= HOLD_REATTACHES) return false;
    reattaches.current++;
    setReattachAt(at);
    return true;
  }, []);
  return { reattachAt, refused, failed };
}
