import { listen } from '../ui/listen';
import { playerLog } from './player-log';

/** A seek into buffered media that has not finished after this long is taken as lost. */
export const STUCK_SEEK_MS = 2_500;
/** How often a lost seek is nudged, then the media pipeline rebuilt, before giving up. */
const MAX_RESCUES = 4;

export interface StuckSeekRescue {
  /** Rebuilds the media pipeline (hls.js: recoverMediaError, a new MediaSource). */
  rebuild(): void;
}

/**
 * Rescues a seek the engine lost. WebKitGTK (its GStreamer Media Source) sometimes never finishes
 * a seek made before the first frame: hls.js seeks over the 0.08 s gap before the buffer's first
 * frame (the encoder's B-frame delay) while play() waits, and then `seeking` stays true, readyState
 * HAVE_METADATA, with the whole lecture buffered, and no `seeked` ever comes: the student sees a
 * spinner for good. hls.js does not help there: its stall handling waits for any seek into a
 * buffered range to complete. So: a seek into buffered media still pending after STUCK_SEEK_MS is
 * nudged 10 ms on (a new seek), and one still pending after that rebuilds the pipeline; at most
 * MAX_RESCUES times, after which the player keeps spinning, as before.
 */
export function rescueStuckSeeks(media: HTMLMediaElement, rescue: StuckSeekRescue): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let rescues = 0;
  let step = 0;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(check, STUCK_SEEK_MS);
  };
  const check = () => {
    timer = undefined;
    if (!media.seeking || rescues >= MAX_RESCUES) return;
    if (!bufferedAt(media, media.currentTime)) return arm(); // still loading: not lost
    rescues++;
    if (step++ % 2 === 0) {
      playerLog(`seek lost at ${media.currentTime.toFixed(3)}: nudged`);
      media.currentTime += 0.01; // a new seek: fires seeking, which arms again
    } else {
      playerLog(`seek lost at ${media.currentTime.toFixed(3)} again: pipeline rebuilt`);
      rescue.rebuild();
    }
    arm();
  };
  const onSeeking = () => arm();
  const onSettled = () => {
    clearTimeout(timer);
    timer = undefined;
    step = 0;
  };
  const listening = new AbortController();
  listen(media, { seeking: onSeeking, seeked: onSettled, emptied: onSettled }, listening.signal);
  return () => {
    clearTimeout(timer);
    listening.abort();
  };
}

function bufferedAt(media: HTMLMediaElement, t: number): boolean {
  for (let i = 0; i < media.buffered.length; i++)
    if (media.buffered.start(i) <= t && t < media.buffered.end(i)) return true;
  return false;
}
