import { describe, expect, it } from 'vitest';
import { DEFAULT_CUE_SETTINGS, type Cue } from '../../contract/cues';
import type { Captions } from './captions';
import { drawOverlays, type OverlayState } from './frame-overlays';

/** A 2D context that records the text drawn and where. */
function recorder() {
  const texts: { text: string; y: number }[] = [];
  const ctx = {
    canvas: { width: 1280, height: 720 },
    font: '',
    fillStyle: '',
    textAlign: 'left',
    textBaseline: 'alphabetic',
    save() {},
    restore() {},
    fillRect() {},
    fillText(text: string, _x: number, y: number) {
      texts.push({ text, y });
    },
    measureText: (text: string) => ({ width: text.length * 10 }),
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, texts };
}

const cue: Cue = {
  id: '',
  start: 0,
  end: 10,
  text: 'Hello there',
  plain: 'Hello there',
  settings: DEFAULT_CUE_SETTINGS,
};
const canvas = { width: 1280, height: 720 };
const rect = { x: 0, y: 0, w: 1280, h: 720 };
const base: OverlayState = { cssHeight: 720, time: 1, controlsShown: true, now: 0 };
const shown = (language: string | null) => ({ language, cues: [cue] }) as unknown as Captions;

describe('drawOverlays', () => {
  it('draws nothing without captions shown or a session code', () => {
    const { ctx, texts } = recorder();
    drawOverlays(ctx, canvas, rect, [], { ...base, captions: shown(null) });
    expect(texts).toEqual([]);
  });

  it('draws the cue of the moment above the control bar, lower once the bar hides', () => {
    const withBar = recorder();
    drawOverlays(withBar.ctx, canvas, rect, [], { ...base, captions: shown('en') });
    const without = recorder();
    drawOverlays(without.ctx, canvas, rect, [], { ...base, captions: shown('en'), controlsShown: false });
    expect(withBar.texts.map((t) => t.text)).toEqual(['Hello there']);
    expect(withBar.texts[0]!.y).toBeLessThan(720 - 84);
    expect(without.texts[0]!.y).toBeGreaterThan(withBar.texts[0]!.y);
    const later = recorder();
    drawOverlays(later.ctx, canvas, rect, [], { ...base, captions: shown('en'), time: 11 });
    expect(later.texts).toEqual([]);
  });

  it('draws the session code, never over the control bar', () => {
    const { ctx, texts } = recorder();
    drawOverlays(ctx, canvas, rect, [], { ...base, sessionCode: 'K7Q2M9', captions: shown('en') });
    const code = texts.find((t) => t.text !== 'Hello there');
    expect(code?.text.replace(/\W/g, '')).toBe('K7Q2M9');
    expect(code!.y).toBeLessThan(720 - 84);
  });
});
