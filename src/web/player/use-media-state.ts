import { useEffect, useState, type RefObject } from 'react';
import { listen } from '../ui/listen';

/**
 * What the controls show, read from the <video> on each of its events; the position apart
 * (useCurrentTime), so that the player does not re-render 4 times a second while it plays.
 */
export interface MediaState {
  playing: boolean;
  duration: number;
  volume: number;
  muted: boolean;
  rate: number;
  /** Waiting for data: after a seek, a stall, or before the first frame once play was asked for. */
  buffering: boolean;
  ended: boolean;
}

const INITIAL: MediaState = {
  playing: false,
  duration: 0,
  volume: 1,
  muted: false,
  rate: 1,
  buffering: false,
  ended: false,
};

const EVENTS = [
  'play',
  'pause',
  'playing',
  'waiting',
  'canplay',
  'canplaythrough',
  'timeupdate',
  'durationchange',
  // A live stream's edge moves as segments arrive, while playback may be waiting for them.
  'progress',
  'loadedmetadata',
  'loadeddata',
  'volumechange',
  'ratechange',
  'seeking',
  'seeked',
  'ended',
  'emptied',
] as const;

const HAVE_FUTURE_DATA = 3;

/**
 * The length the controls show: the video's, or for a live stream (an infinite duration, engine.ts)
 * its live edge, the end of what may be sought; 0 while not known.
 */
export function shownDuration(video: HTMLVideoElement): number {
  if (Number.isFinite(video.duration)) return video.duration;
  const { seekable } = video;
  return video.duration === Infinity && seekable.length > 0 ? seekable.end(seekable.length - 1) : 0;
}

const sameState = (a: MediaState, b: MediaState) =>
  (Object.keys(a) as (keyof MediaState)[]).every((key) => a[key] === b[key]);

/** Subscribes to the media element in `ref` and returns its state for rendering. */
export function useMediaState(ref: RefObject<HTMLVideoElement | null>): MediaState {
  const [state, setState] = useState(INITIAL);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    let waiting = false;
    const read = (event?: Event) => {
      if (event?.type === 'waiting') waiting = true;
      else if (
        event &&
        ['playing', 'canplay', 'canplaythrough', 'pause', 'ended', 'emptied'].includes(event.type)
      ) {
        waiting = false;
      }
      const starved = !video.paused && video.readyState < HAVE_FUTURE_DATA;
      const next: MediaState = {
        playing: !video.paused,
        duration: shownDuration(video),
        volume: video.volume,
        muted: video.muted,
        rate: video.playbackRate,
        buffering: (waiting || starved || video.seeking) && !video.ended,
        ended: video.ended,
      };
      // Most events (every timeupdate) change nothing here: the same object, no render.
      setState((shown) => (sameState(shown, next) ? shown : next));
    };
    for (const name of EVENTS) video.addEventListener(name, read);
    read();
    return () => {
      for (const name of EVENTS) video.removeEventListener(name, read);
    };
  }, [ref]);
  return state;
}

/**
 * The <video>'s position in seconds, for the few parts that show it (the seek bar, the clock): they
 * re-render at each timeupdate, the rest of the player does not.
 */
export function useCurrentTime(ref: RefObject<HTMLVideoElement | null>): number {
  const [time, setTime] = useState(0);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    const read = () => setTime(video.currentTime);
    const listening = new AbortController();
    const events = ['timeupdate', 'seeking', 'seeked', 'loadedmetadata', 'ended', 'emptied'];
    listen(video, Object.fromEntries(events.map((name) => [name, read])), listening.signal);
    read();
    return () => listening.abort();
  }, [ref]);
  return time;
}
