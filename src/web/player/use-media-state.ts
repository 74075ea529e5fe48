import { useEffect, useState, type RefObject } from 'react';

/** What the controls show, read from the <video> on each of its events. */
export interface MediaState {
  playing: boolean;
  currentTime: number;
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
  currentTime: 0,
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
      setState({
        playing: !video.paused,
        currentTime: video.currentTime,
        duration: Number.isFinite(video.duration) ? video.duration : 0,
        volume: video.volume,
        muted: video.muted,
        rate: video.playbackRate,
        buffering: (waiting || starved || video.seeking) && !video.ended,
        ended: video.ended,
      });
    };
    for (const name of EVENTS) video.addEventListener(name, read);
    read();
    return () => {
      for (const name of EVENTS) video.removeEventListener(name, read);
    };
  }, [ref]);
  return state;
}
