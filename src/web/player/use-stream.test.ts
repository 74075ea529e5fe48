import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeBrowser, type FakeBrowser } from '../../../test/support/fake-media';
import type { Recovery } from './use-recovery';
import { useStream, type StreamOptions } from './use-stream';

let browser: FakeBrowser;
let video: HTMLVideoElement;
let recovery: Recovery;
beforeEach(() => {
  browser = installFakeBrowser();
  video = document.createElement('video');
  recovery = {
    error: null,
    attempt: 0,
    retry: vi.fn(),
    clear: vi.fn(),
    fail: vi.fn(() => Promise.resolve()),
    unsupported: vi.fn(),
  };
});
afterEach(() => browser.restore());

function attach(options: StreamOptions) {
  return renderHook(({ options, recovery }) => useStream({ current: video }, options, recovery), {
    initialProps: { options, recovery },
  });
}

describe('useStream', () => {
  it('attaches the source (natively without MSE), clearing any old error, and says which engine', async () => {
    const { result } = attach({ src: '/stream/v1/master.m3u8' });
    await vi.waitFor(() => expect(result.current).toBe('native'));
    expect(video.getAttribute('src')).toBe('/stream/v1/master.m3u8');
    expect(recovery.clear).toHaveBeenCalledTimes(1);
  });

  it('starts at the start time once the length is known, a second before the end at the latest', () => {
    attach({ src: '/a.m3u8', startAt: 42 });
    act(() => void video.dispatchEvent(new Event('loadedmetadata')));
    expect(video.currentTime).toBe(42);
    video.currentTime = 0;
    const late = document.createElement('video');
    video = late;
    attach({ src: '/a.m3u8', startAt: 59.5 });
    act(() => void late.dispatchEvent(new Event('loadedmetadata')));
    expect(late.currentTime).toBe(59);
  });

  it('plays at once with autoPlay', async () => {
    attach({ src: '/a.m3u8', autoPlay: true });
    await vi.waitFor(() => expect(video.paused).toBe(false));
  });

  it('hands a media error to the recovery, and attaches again on the next attempt', async () => {
    const { rerender, result } = attach({ src: '/a.m3u8' });
    await vi.waitFor(() => expect(result.current).toBe('native'));
    Object.defineProperty(video, 'error', { configurable: true, value: { code: 4 } });
    act(() => void video.dispatchEvent(new Event('error')));
    expect(recovery.fail).toHaveBeenCalledWith('media-error-4', '/a.m3u8', expect.any(Function));
    const current = vi.mocked(recovery.fail).mock.calls[0]![2];
    expect(current()).toBe(true);
    rerender({ options: { src: '/a.m3u8' }, recovery: { ...recovery, attempt: 1 } });
    expect(current()).toBe(false); // the first attach is gone: its late answer is not shown
    expect(recovery.clear).toHaveBeenCalledTimes(2);
  });
});
