import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installFakeBrowser, type FakeBrowser } from '../../../test/support/fake-media';
import {
  cycleSpeed,
  nextSpeed,
  seekBy,
  setVolume,
  toggleMute,
  togglePlay,
  useMediaActions,
} from './media-actions';

let browser: FakeBrowser;
let video: HTMLVideoElement;
beforeEach(() => {
  browser = installFakeBrowser();
  video = document.createElement('video');
});
afterEach(() => browser.restore());

describe('media actions', () => {
  it('plays a paused video and pauses a playing one', () => {
    togglePlay(video);
    expect(video.paused).toBe(false);
    togglePlay(video);
    expect(video.paused).toBe(true);
  });

  it('seeks by a delta, never before 0 nor past the end', () => {
    seekBy(video, 5);
    expect(video.currentTime).toBe(5);
    seekBy(video, -10);
    expect(video.currentTime).toBe(0);
    video.currentTime = 58;
    seekBy(video, 5);
    expect(video.currentTime).toBe(60);
  });

  it('mutes at volume 0, and unmutes a silent video at half volume', () => {
    setVolume(video, 0);
    expect(video.muted).toBe(true);
    toggleMute(video);
    expect([video.muted, video.volume]).toEqual([false, 0.5]);
    toggleMute(video);
    expect(video.muted).toBe(true);
    setVolume(video, 0.8);
    expect([video.muted, video.volume]).toEqual([false, 0.8]);
  });

  it('cycles the speed 1, 1.5, 2, 0.5 and round; an unknown speed goes to the first', () => {
    const seen = [];
    for (let i = 0; i < 4; i++) {
      cycleSpeed(video);
      seen.push(video.playbackRate);
    }
    expect(seen).toEqual([1.5, 2, 0.5, 1]);
    expect(nextSpeed(1.25)).toBe(0.5);
  });

  it('binds the actions to the element in the ref, doing nothing without one', () => {
    const ref: { current: HTMLVideoElement | null } = { current: null };
    const { result, rerender } = renderHook(() => useMediaActions(ref));
    const first = result.current;
    first.seekBy(5); // no element yet: nothing to do, no error
    ref.current = video;
    rerender();
    expect(result.current).toBe(first);
    result.current.seekTo(12);
    expect(video.currentTime).toBe(12);
  });
});
