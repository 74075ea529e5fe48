import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installFakeBrowser, type FakeBrowser } from '../../../test/support/fake-media';
import { useFullscreen } from './use-fullscreen';

let browser: FakeBrowser;
let root: HTMLDivElement;
beforeEach(() => {
  browser = installFakeBrowser();
  root = document.createElement('div');
  document.body.append(root);
});
afterEach(() => {
  root.remove();
  browser.restore();
});

describe('useFullscreen', () => {
  it('asks for fullscreen on the root and follows fullscreenchange', () => {
    const { result } = renderHook(() => useFullscreen({ current: root }));
    act(() => result.current.toggle());
    expect(browser.requestFullscreen.mock.contexts[0]).toBe(root);
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => root });
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    expect(result.current.native).toBe(true);
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => null });
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    expect(result.current.native).toBe(false);
    delete (document as { fullscreenElement?: unknown }).fullscreenElement;
  });

  it('covers the viewport instead when the browser refuses, and leaves that on the next toggle', async () => {
    browser.requestFullscreen.mockImplementationOnce(() => Promise.reject(new Error('no')));
    const { result } = renderHook(() => useFullscreen({ current: root }));
    await act(async () => result.current.toggle());
    expect(result.current.pseudo).toBe(true);
    act(() => result.current.toggle());
    expect(result.current.pseudo).toBe(false);
    expect(browser.requestFullscreen).toHaveBeenCalledTimes(1);
  });
});
