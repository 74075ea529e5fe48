import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { LiveBadge } from './LiveBadge';
import { BEHIND_LIVE_SECONDS, useLiveEdge } from './use-live-edge';

afterEach(() => vi.useRealTimers());

/** A <video> whose currentTime the test sets, and whose play() resolves. */
function fakeVideo(at: number) {
  const video = document.createElement('video');
  let time = at;
  Object.defineProperty(video, 'currentTime', {
    get: () => time,
    set: (t: number) => void (time = t),
    configurable: true,
  });
  Object.defineProperty(video, 'duration', { value: 600, configurable: true });
  video.play = () => Promise.resolve();
  return video;
}

describe('the live edge', () => {
  it('is live while the engine says so, offers Back to live past 10 s behind, and seeks to the edge', () => {
    vi.useFakeTimers();
    const video = fakeVideo(95);
    let edge = 100;
    const { result } = renderHook(() => useLiveEdge({ current: video }));
    expect(result.current.live).toBe(false);
    act(() => result.current.onLive(() => edge));
    expect(result.current.live).toBe(true);
    expect(result.current.behind).toBe(false);

    // Paused while the class goes on: the edge moves away.
    edge = 95 + BEHIND_LIVE_SECONDS + 2;
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current.behind).toBe(true);

    act(() => result.current.backToLive());
    expect(video.currentTime).toBe(edge);
    expect(result.current.behind).toBe(false);

    // The playlist got its end: the recording, no longer live.
    act(() => result.current.onLive(null));
    expect(result.current.live).toBe(false);
    expect(result.current.behind).toBe(false);
  });
});

describe('the LIVE badge', () => {
  it('says LIVE, and Back to live only when behind', async () => {
    const back = vi.fn();
    const { rerender } = render(
      <MantineProvider>
        <LiveBadge behind={false} onBackToLive={back} />
      </MantineProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('LIVE');
    expect(screen.queryByRole('button', { name: 'Back to live' })).toBeNull();
    rerender(
      <MantineProvider>
        <LiveBadge behind onBackToLive={back} />
      </MantineProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Back to live' }));
    expect(back).toHaveBeenCalledOnce();
  });
});
