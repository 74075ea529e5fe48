import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { videoAt } from '../test-utils';
import { useCurrentTime, useMediaState } from './use-media-state';

/** Moves the <video> in `ref` to `seconds` as playback does: a timeupdate event. */
function playTo(video: HTMLVideoElement, seconds: number) {
  Object.defineProperty(video, 'currentTime', { value: seconds, configurable: true });
  act(() => void video.dispatchEvent(new Event('timeupdate')));
}

describe('media state while a video plays', () => {
  it('does not render the player again at each timeupdate; the position is read apart', () => {
    const ref = videoAt(0);
    let renders = 0;
    const state = renderHook(() => {
      renders++;
      return useMediaState(ref);
    });
    const position = renderHook(() => useCurrentTime(ref));
    const before = renders;
    for (let t = 0.25; t <= 10; t += 0.25) playTo(ref.current!, t);
    // 40 timeupdates: no render (React may run the first once more before it bails out).
    expect(renders - before).toBeLessThanOrEqual(1);
    expect(position.result.current).toBe(10);
    // A change the controls show renders.
    Object.defineProperty(ref.current!, 'playbackRate', { value: 1.5, configurable: true });
    act(() => void ref.current!.dispatchEvent(new Event('ratechange')));
    expect(state.result.current.rate).toBe(1.5);
  });

  it("shows a live stream's length as its live edge, which grows as segments arrive while playback waits", () => {
    const ref = videoAt(30);
    const video = ref.current!;
    let edge = 36;
    Object.defineProperty(video, 'duration', { value: Infinity, configurable: true });
    Object.defineProperty(video, 'seekable', {
      get: () => ({ length: 1, start: () => 0, end: () => edge }),
      configurable: true,
    });
    const state = renderHook(() => useMediaState(ref));
    expect(state.result.current.duration).toBe(36);
    edge = 38;
    act(() => void video.dispatchEvent(new Event('progress')));
    expect(state.result.current.duration).toBe(38);
    // The class ended: the playlist's end is the length again.
    Object.defineProperty(video, 'duration', { value: 40, configurable: true });
    act(() => void video.dispatchEvent(new Event('durationchange')));
    expect(state.result.current.duration).toBe(40);
  });
});
