import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installFakeBrowser, type FakeBrowser } from '../../../test/support/fake-media';
import { useFrameCanvas, type FrameCanvasContent } from './use-frame-canvas';

let browser: FakeBrowser;
const elements = () => ({
  videoRef: { current: document.createElement('video') },
  canvasRef: { current: document.createElement('canvas') },
  rootRef: { current: document.createElement('div') },
});
beforeEach(() => {
  browser = installFakeBrowser();
});
afterEach(() => browser.restore());

function draw(content: FrameCanvasContent) {
  const refs = elements();
  const hook = renderHook((props: FrameCanvasContent) => useFrameCanvas(refs, props), {
    initialProps: content,
  });
  return { ...hook, refs };
}

describe('useFrameCanvas', () => {
  it('draws the watermark three times into the canvas at once', () => {
    draw({ watermark: 'FS24-017', controlsShown: true });
    expect(browser.drawnText.slice(0, 3)).toEqual(['FS24-017', 'FS24-017', 'FS24-017']);
  });

  it('redraws at once when the watermark or the session code changes', () => {
    const { rerender } = draw({ watermark: 'FS24-017', controlsShown: true });
    browser.drawnText.length = 0;
    rerender({ watermark: 'FS24-018', controlsShown: true });
    expect(browser.drawnText.slice(0, 3)).toEqual(['FS24-018', 'FS24-018', 'FS24-018']);
    browser.drawnText.length = 0;
    rerender({ watermark: 'FS24-018', controlsShown: true, sessionCode: 'K7Q2M9' });
    expect(browser.drawnText.some((text) => text.replace(/\W/g, '') === 'K7Q2M9')).toBe(true);
  });

  it('redraws when the control bar shows or hides', () => {
    const { rerender } = draw({ watermark: 'W', controlsShown: true });
    browser.drawnText.length = 0;
    rerender({ watermark: 'W', controlsShown: false });
    expect(browser.drawnText).toEqual(['W', 'W', 'W']);
  });
});
