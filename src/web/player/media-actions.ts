import { useMemo, type RefObject } from 'react';
import { PLAYER_SPEEDS } from '../../contract/constants';
import { describeMedia, playerLog } from './player-log';

/**
 * What the player's buttons and keys do to the <video>: plain functions of the element, so the
 * control bar, the keys and the canvas share them (use-player-keys.ts, VideoPlayer.tsx).
 */

/** Plays a paused or ended video, pauses a playing one. */
export function togglePlay(video: HTMLVideoElement) {
  if (video.paused || video.ended)
    video.play().then(
      () => playerLog(`play resolved ${describeMedia(video)}`),
      (err: unknown) => playerLog(`play rejected ${String(err)} ${describeMedia(video)}`),
    );
  else video.pause();
}

/** Jumps `delta` seconds, within the video. */
export function seekBy(video: HTMLVideoElement, delta: number) {
  const end = Number.isFinite(video.duration) ? video.duration : Number.POSITIVE_INFINITY;
  video.currentTime = Math.min(Math.max(video.currentTime + delta, 0), end);
}

export function seekTo(video: HTMLVideoElement, seconds: number) {
  video.currentTime = seconds;
}

/** The volume slider: 0 mutes. */
export function setVolume(video: HTMLVideoElement, volume: number) {
  video.volume = volume;
  video.muted = volume === 0;
}

/** Mutes, or unmutes (at half volume if the volume was 0). */
export function toggleMute(video: HTMLVideoElement) {
  if (video.muted || video.volume === 0) {
    if (video.volume === 0) video.volume = 0.5;
    video.muted = false;
  } else {
    video.muted = true;
  }
}

/** The speed after `rate` in PLAYER_SPEEDS, round. */
export function nextSpeed(rate: number): number {
  return PLAYER_SPEEDS[
    (PLAYER_SPEEDS.indexOf(rate as (typeof PLAYER_SPEEDS)[number]) + 1) % PLAYER_SPEEDS.length
  ]!;
}

export function cycleSpeed(video: HTMLVideoElement) {
  video.playbackRate = nextSpeed(video.playbackRate);
}

export interface MediaActions {
  togglePlay(): void;
  seekBy(delta: number): void;
  seekTo(seconds: number): void;
  setVolume(volume: number): void;
  toggleMute(): void;
  cycleSpeed(): void;
}

/** The functions above bound to the <video> in `videoRef` (doing nothing while there is none); stable. */
export function useMediaActions(videoRef: RefObject<HTMLVideoElement | null>): MediaActions {
  return useMemo(() => {
    const on =
      <A extends unknown[]>(action: (video: HTMLVideoElement, ...args: A) => void) =>
      (...args: A) => {
        const video = videoRef.current;
        if (video) action(video, ...args);
      };
    return {
      togglePlay: on(togglePlay),
      seekBy: on(seekBy),
      seekTo: on(seekTo),
      setVolume: on(setVolume),
      toggleMute: on(toggleMute),
      cycleSpeed: on(cycleSpeed),
    };
  }, [videoRef]);
}
