import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../test-utils';
import { installFakeBrowser, type FakeBrowser } from '../../../test/support/fake-media';
import { VideoPlayer } from './VideoPlayer';

let browser: FakeBrowser;
beforeEach(() => {
  browser = installFakeBrowser();
});
afterEach(() => {
  vi.useRealTimers();
  browser.restore();
});

function renderPlayer(props: Partial<Parameters<typeof VideoPlayer>[0]> = {}) {
  renderRoute(
    <VideoPlayer src="/stream/videos/v1/master.m3u8" watermark="FS24-017" title="Lecture 1" {...props} />,
  );
  const video = document.querySelector('video')!;
  const player = screen.getByRole('region', { name: 'Video player: Lecture 1' });
  return { video, player };
}

describe('VideoPlayer', () => {
  it('streams natively where the browser has no Media Source Extensions and never shows the <video> itself', async () => {
    const { video, player } = renderPlayer();
    await vi.waitFor(() => expect(player).toHaveAttribute('data-engine', 'native'));
    expect(video.getAttribute('src')).toBe('/stream/videos/v1/master.m3u8');
    expect(video).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('img', { name: 'Lecture 1: video with watermark FS24-017' }).tagName).toBe(
      'CANVAS',
    );
  });

  it('draws the roll number into the canvas three times: centre and two corners', () => {
    renderPlayer();
    expect(browser.drawnText.slice(0, 3)).toEqual(['FS24-017', 'FS24-017', 'FS24-017']);
  });

  it('plays and pauses with the button, the canvas and Space', async () => {
    const user = userEvent.setup();
    const { video, player } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Play' }));
    expect(video.paused).toBe(false);
    expect(player).toHaveAttribute('data-state', 'playing');
    await user.click(screen.getByRole('img', { name: /video with watermark/ }));
    expect(video.paused).toBe(true);
    player.focus();
    await user.keyboard(' ');
    expect(video.paused).toBe(false);
    await user.keyboard(' ');
    expect(video.paused).toBe(true);
  });

  it('jumps 5 s with the arrow keys, within the video', async () => {
    const user = userEvent.setup();
    const { video, player } = renderPlayer();
    player.focus();
    await user.keyboard('{ArrowRight}');
    expect(video.currentTime).toBe(5);
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowLeft}');
    expect(video.currentTime).toBe(10);
    video.currentTime = 58;
    await user.keyboard('{ArrowRight}');
    expect(video.currentTime).toBe(60);
    video.currentTime = 2;
    await user.keyboard('{ArrowLeft}');
    expect(video.currentTime).toBe(0);
  });

  it('takes arrow keys from the page too, but leaves the volume slider its own', async () => {
    const user = userEvent.setup();
    const { video } = renderPlayer();
    await user.keyboard('{ArrowRight}'); // focus is on the page body
    expect(video.currentTime).toBe(5);
    screen.getByRole('slider', { name: 'Volume' }).focus();
    video.volume = 0.5;
    await user.keyboard('{ArrowLeft}');
    expect(video.currentTime).toBe(5);
    expect(video.volume).toBeCloseTo(0.45);
  });

  it('shows elapsed and total time as mm:ss; the seek bar jumps 5 s with the arrow keys too', async () => {
    const user = userEvent.setup();
    const { video } = renderPlayer();
    act(() => {
      video.currentTime = 45;
    });
    expect(screen.getByTestId('elapsed')).toHaveTextContent('00:45');
    expect(screen.getByText(/\/ 01:00$/)).toBeInTheDocument();
    const seek = screen.getByRole('slider', { name: 'Seek' });
    expect(seek).toHaveAttribute('aria-valuetext', '00:45 of 01:00');
    seek.focus();
    await user.keyboard('{ArrowRight}');
    expect(video.currentTime).toBe(50);
    expect(seek).toHaveAttribute('aria-valuetext', '00:50 of 01:00');
  });

  it('cycles the speed 1x, 1.5x, 2x, 0.5x and back', async () => {
    const user = userEvent.setup();
    const { video } = renderPlayer();
    const speed = screen.getByRole('button', { name: /Playback speed/ });
    const seen = [];
    for (let i = 0; i < 4; i++) {
      await user.click(speed);
      seen.push([speed.textContent, video.playbackRate]);
    }
    expect(seen).toEqual([
      ['1.5x', 1.5],
      ['2x', 2],
      ['0.5x', 0.5],
      ['1x', 1],
    ]);
  });

  it('mutes and unmutes; a volume of 0 counts as muted', async () => {
    const user = userEvent.setup();
    const { video } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(video.muted).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(video.muted).toBe(false);
    act(() => {
      video.volume = 0;
    });
    expect(screen.getByRole('button', { name: 'Unmute' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(video.volume).toBe(0.5);
  });

  it('asks the browser for fullscreen on the player, not on the video', async () => {
    const user = userEvent.setup();
    const { player } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Fullscreen' }));
    expect(browser.requestFullscreen).toHaveBeenCalledTimes(1);
    expect(browser.requestFullscreen.mock.contexts[0]).toBe(player);
  });

  it('hides the controls after 3 s without activity while playing, and brings them back on movement', () => {
    vi.useFakeTimers();
    const { video, player } = renderPlayer();
    act(() => void video.play());
    act(() => vi.advanceTimersByTime(2_900));
    expect(player).not.toHaveAttribute('data-idle');
    act(() => vi.advanceTimersByTime(200));
    expect(player).toHaveAttribute('data-idle', 'true');
    fireEvent.mouseMove(player);
    expect(player).not.toHaveAttribute('data-idle');
    // Paused, they stay.
    act(() => video.pause());
    act(() => vi.advanceTimersByTime(5_000));
    expect(player).not.toHaveAttribute('data-idle');
  });

  it('shows a spinner while waiting for data', () => {
    const { video } = renderPlayer();
    act(() => void video.play());
    act(() => void video.dispatchEvent(new Event('waiting')));
    expect(screen.getByRole('status', { name: 'Loading video' })).toBeInTheDocument();
    act(() => void video.dispatchEvent(new Event('playing')));
    expect(screen.queryByRole('status', { name: 'Loading video' })).not.toBeInTheDocument();
  });

  it('resumes at the saved position once the stream is known', () => {
    const { video } = renderPlayer({ startAt: 42 });
    act(() => void video.dispatchEvent(new Event('loadedmetadata')));
    expect(video.currentTime).toBe(42);
  });
});
