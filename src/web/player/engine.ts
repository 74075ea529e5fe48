import { playerLog } from './player-log';
import { rescueStuckSeeks } from './stuck-seek';

/** How a stream reaches the <video>: the browser's own HLS, or hls.js over Media Source Extensions. */
export type EngineKind = 'native' | 'hls.js';

export interface AttachedStream {
  kind: EngineKind;
  destroy(): void;
}

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** Failed segment loads in a row (hls.js's retries included) before playback gives up with an error. */
export const SEGMENT_FAILURES_IN_A_ROW = 6;

/**
 * hls.js's distance from a live playlist's end (it applies to live playlists only; a lecture has an
 * end and never uses it): 1.5 live segments (ingest.ts, 2 s) instead of its default of three target
 * durations. hls.js never starts closer to the end than one target duration, which the live
 * playlists keep at the segment length (ingest.ts) so that this holds. No
 * `liveMaxLatencyDuration`: hls.js seeks any viewer further behind than that to the edge at every
 * playlist reload, paused or seeked back through the class alike, and Back to live is the viewer's
 * choice. Nor `maxLiveSyncPlaybackRate`:
 * it also puts a speed the student chose back to 1x whenever they are away from the edge.
 */
export const LIVE_LATENCY = { liveSyncDuration: 3 } as const;
/** How long after a live stream's first picture its start delay is taken back, and from how far off. */
const LIVE_CATCH_UP_AFTER_MS = 2_000;
const LIVE_CATCH_UP_SECONDS = 0.75;

/** Whether the browser plays HLS by itself (Safari, iOS, recent Chromium). */
export function nativeHlsSupported(video: HTMLVideoElement): boolean {
  return video.canPlayType(HLS_TYPE) !== '';
}

/** Whether hls.js can run here (Media Source Extensions, or Safari's Managed Media Source). */
export function mseSupported(): boolean {
  return typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window);
}

export interface AttachOptions {
  /**
   * A playback error the engine cannot recover from. Under hls.js the <video>'s own error event is
   * not one: hls.js rebuilds the MediaSource (mediaSourceRequiresReset) and says when it gives up.
   */
  onFatal(message: string): void;
  /** Where playback starts, in seconds (a resume position, a search hit); 0 or absent: the beginning. */
  startAt?: number;
  /** The stream's length as the server knows it, before the playlist says (0: unknown). */
  durationHint?: number;
  /**
   * The stream turned live (its playlist has no end yet: a live class) with where its live edge is
   * now, in media seconds; or stopped being live (null). Called when that changes, not per reload.
   */
  onLive?(edge: (() => number) | null): void;
  /**
   * A key refused with 403: the server holds the lecture at a checkpoint (player/hold.ts). Answers
   * the moment to go on loading from (the checkpoint's), or null to wait for a play or seek; a
   * promise of either while the page does not know the checkpoints yet.
   */
  onHeld?(): number | null | Promise<number | null>;
}

/**
 * Where a stream of `duration` seconds (0 or NaN: not known yet) starts for `startAt`: there, but a
 * second before the end at the latest (a moment in the last second is still shown, not skipped); a
 * start past the end (a link older than the video) plays from the beginning.
 */
export function startPosition(startAt: number, duration: number): number {
  if (!(startAt > 0) || (duration > 0 && startAt > duration)) return 0;
  return duration > 0 ? Math.max(0, Math.min(startAt, duration - 1)) : startAt;
}

/**
 * Plays `url` in `video` with hls.js wherever Media Source Extensions exist (its chunk is only
 * loaded here), natively only where they do not (older iPhones). hls.js first, even where the
 * browser plays HLS itself (Safari, Chromium 14x+): only hls.js bounds the forward buffer, which
 * bounds how long a revoked student keeps watching, and Chromium's native HLS was seen to ignore
 * a pause for seconds. The stream's requests carry the session cookie (same origin); the child
 * playlists and segments carry their own tokens.
 */
export async function attachStream(
  video: HTMLVideoElement,
  url: string,
  options: AttachOptions,
): Promise<AttachedStream> {
  if (!mseSupported() && nativeHlsSupported(video)) {
    // Native HLS has no recovery of its own: a media error ends playback.
    const onError = () => {
      if (video.error) options.onFatal(`media-error-${video.error.code}`);
    };
    // The browser's own HLS starts at the beginning: seek once the length is known.
    const onLoaded = () => {
      const at = startPosition(options.startAt ?? 0, video.duration);
      if (at > 0) video.currentTime = at;
    };
    // The browser's own HLS says a stream without an end has an infinite duration.
    let live = false;
    const onDuration = () => {
      const now = video.duration === Infinity;
      if (now === live) return;
      live = now;
      const { seekable } = video;
      options.onLive?.(live ? () => (seekable.length ? seekable.end(seekable.length - 1) : 0) : null);
    };
    video.addEventListener('error', onError);
    video.addEventListener('durationchange', onDuration);
    video.addEventListener('loadedmetadata', onLoaded, { once: true });
    video.src = url;
    return {
      kind: 'native',
      destroy() {
        video.removeEventListener('error', onError);
        video.removeEventListener('durationchange', onDuration);
        video.removeEventListener('loadedmetadata', onLoaded);
        video.removeAttribute('src');
        video.load();
      },
    };
  }
  const { default: Hls } = await import('hls.js/light');
  if (!Hls.isSupported())
    throw new Error('This browser cannot play the course videos. Please use a current browser.');
  // At most 30 s buffered ahead: a revoke stops playback within KEY_ROTATION_SECONDS + 30 s of media.
  const hls = new Hls({
    // hls.js loads the segment at the start first and seeks once it is buffered. A seek of the
    // <video> at loadedmetadata, before any media, is what WebKitGTK lost (stuck-seek.ts) and,
    // under load, deadlocked on in GStreamer.
    startPosition: startPosition(options.startAt ?? 0, options.durationHint ?? 0) || -1,
    ...LIVE_LATENCY,
    // A live class's stream has no end yet: the MediaSource says so (an infinite duration, the
    // seekable range up to the live edge), as the browser's own HLS does. With the playlist's end as
    // its duration, WebKit ended a class (pause, then ended) whenever playback caught up with the
    // last segment before the next one came (a late playlist reload, the instructor's encoder
    // dropping for a few seconds) and stayed paused; other engines wait for more data. When the
    // class ends, its playlist's end is the duration again.
    liveDurationInfinity: true,
    backBufferLength: 30,
    maxBufferLength: 30,
    maxMaxBufferLength: 30,
    // Segment retries: sooner than hls.js's 1-8 s back-off, so SEGMENT_FAILURES_IN_A_ROW come in ~10 s.
    fragLoadPolicy: {
      default: {
        maxTimeToFirstByteMs: 10_000,
        maxLoadTimeMs: 120_000,
        timeoutRetry: { maxNumRetry: 4, retryDelayMs: 0, maxRetryDelayMs: 0 },
        errorRetry: { maxNumRetry: 6, retryDelayMs: 500, maxRetryDelayMs: 3000 },
      },
    },
  });
  let recoveries = 0;
  // hls.js retries a failing segment and then tries the other renditions, for a minute and more,
  // while the student sees a spinner; a segment the page may not fetch (a CSP or CORS refusal) fails
  // forever. After this many failed loads in a row, playback stops with an error and "Try again".
  let segmentFailures = 0;
  hls.on(Hls.Events.FRAG_LOADED, () => void (segmentFailures = 0));
  // A live class's playlist has no #EXT-X-ENDLIST until the class ends (docs/LIVE.md).
  let live = false;
  hls.on(Hls.Events.LEVEL_LOADED, (_event, data) => {
    if (data.details.live === live) return;
    live = data.details.live;
    const { details } = data;
    options.onLive?.(live ? () => hls.liveSyncPosition ?? details.edge : null);
  });
  // hls.js fixes a live stream's position when it starts and then plays at 1x, so whatever the
  // start cost (the first playlist, key and segment on a busy machine: 1-2 s seen) stays as extra
  // delay for the whole class. Once, shortly after the picture first moves, a viewer who has not
  // paused or seeked since is brought to the hold-back (a seek within what is buffered).
  let catchUp: ReturnType<typeof setTimeout> | undefined;
  let firstPlaying = true;
  const onPlaying = () => {
    if (!firstPlaying) return;
    firstPlaying = false;
    if (!live || (options.startAt ?? 0) > 0) return;
    catchUp = setTimeout(() => {
      const to = hls.liveSyncPosition;
      if (!live || video.paused || to === null || to - video.currentTime <= LIVE_CATCH_UP_SECONDS) return;
      playerLog(`live catch-up ${video.currentTime.toFixed(1)} -> ${to.toFixed(1)}`);
      video.currentTime = to;
    }, LIVE_CATCH_UP_AFTER_MS);
  };
  const cancelCatchUp = () => clearTimeout(catchUp);
  // Seeks before the first picture are hls.js's own start; one after it is the student's.
  const onSeeking = () => !firstPlaying && cancelCatchUp();
  video.addEventListener('playing', onPlaying);
  video.addEventListener('pause', cancelCatchUp);
  video.addEventListener('seeking', onSeeking);
  const logEvent = (event: string, data?: { frag?: { sn: number | string; level: number; start: number } }) =>
    playerLog(
      `hls ${event}${data?.frag ? ` sn=${data.frag.sn} l=${data.frag.level} @${data.frag.start}` : ''}`,
    );
  for (const name of [
    Hls.Events.MEDIA_ATTACHED,
    Hls.Events.MANIFEST_PARSED,
    Hls.Events.LEVEL_LOADED,
    Hls.Events.LEVEL_SWITCHED,
    Hls.Events.KEY_LOADED,
    Hls.Events.FRAG_LOADING,
    Hls.Events.FRAG_LOADED,
    Hls.Events.FRAG_BUFFERED,
    Hls.Events.BUFFER_CREATED,
    Hls.Events.BUFFER_EOS,
  ]) {
    hls.on(name, logEvent as never);
  }
  // A key refused with 403 while nothing else fails: the server holds the lecture at a checkpoint
  // not passed yet (checkpoints/hold.ts). Loading stops, without an error, until the student plays
  // or seeks again (after answering), when it starts again and asks for the key once more.
  let held = false;
  let destroyed = false;
  const resumeHeld = () => {
    if (!held) return;
    held = false;
    hls.startLoad();
  };
  video.addEventListener('play', resumeHeld);
  video.addEventListener('seeking', resumeHeld);
  hls.on(Hls.Events.ERROR, (_event, data) => {
    playerLog(`hls error ${data.type} ${data.details} fatal=${data.fatal} ${data.response?.code ?? ''}`);
    if (data.details === Hls.ErrorDetails.KEY_LOAD_ERROR && keyStatus(data) === 403) {
      held = true;
      hls.stopLoad();
      // Where to go on from comes later when the refusal came before the checkpoints did (a start
      // past the hold on a busy machine); a play or seek meanwhile has taken over.
      void Promise.resolve(options.onHeld?.() ?? null).then((resumeAt) => {
        if (resumeAt === null || !held || destroyed) return;
        if (video.readyState >= HTMLMediaElement.HAVE_METADATA) {
          video.currentTime = resumeAt; // its seeking event loads again
        } else {
          // No media yet (a start past the hold): hls.js loads from there and seeks once it is buffered.
          held = false;
          hls.startLoad(resumeAt);
        }
      });
      return;
    }
    const segmentFailed =
      data.details === Hls.ErrorDetails.FRAG_LOAD_ERROR ||
      data.details === Hls.ErrorDetails.FRAG_LOAD_TIMEOUT;
    if (segmentFailed && ++segmentFailures >= SEGMENT_FAILURES_IN_A_ROW) {
      hls.stopLoad();
      options.onFatal(data.details);
      return;
    }
    if (!data.fatal) return;
    // One retry each for network and decoding trouble before giving up (as hls.js recommends).
    const status = data.response?.code ?? 0;
    const refused = status >= 400 && status < 500; // no access, expired token: retrying cannot help
    if (recoveries < 2 && data.type === Hls.ErrorTypes.NETWORK_ERROR && !refused) {
      recoveries++;
      hls.startLoad();
    } else if (recoveries < 2 && data.type === Hls.ErrorTypes.MEDIA_ERROR) {
      recoveries++;
      hls.recoverMediaError();
    } else {
      options.onFatal(data.details);
    }
  });
  // A seek WebKitGTK lost before the first frame is nudged, then the pipeline rebuilt (stuck-seek.ts).
  const stopRescues = rescueStuckSeeks(video, { rebuild: () => hls.recoverMediaError() });
  hls.loadSource(url);
  hls.attachMedia(video);
  return {
    kind: 'hls.js',
    destroy() {
      destroyed = true;
      stopRescues();
      video.removeEventListener('play', resumeHeld);
      video.removeEventListener('seeking', resumeHeld);
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('pause', cancelCatchUp);
      video.removeEventListener('seeking', onSeeking);
      cancelCatchUp();
      hls.destroy();
    },
  };
}

/** The HTTP status of a failed key load, as hls.js reports it (its response, or the XHR itself). */
function keyStatus(data: { response?: { code?: number }; networkDetails?: unknown }): number {
  const details = data.networkDetails as { status?: number } | undefined;
  return data.response?.code ?? details?.status ?? 0;
}
