import { describe, expect, it } from 'vitest';
import { DEFAULT_CUE_SETTINGS, type Cue, type CueSettings } from '../../contract/cues';
import { cueBox, layoutCue } from './caption-layout';

const cue = (plain: string, settings: Partial<CueSettings> = {}): Cue => ({
  id: '',
  start: 0,
  end: 1,
  text: plain,
  plain,
  settings: { ...DEFAULT_CUE_SETTINGS, ...settings },
});

/** The canvas calls layoutCue makes: text 10 px per character wide. */
const ctx = {
  canvas: { width: 1000, height: 500 },
  font: '',
  save() {},
  restore() {},
  measureText: (text: string) => ({ width: text.length * 10 }),
} as unknown as CanvasRenderingContext2D;
const picture = { x: 0, y: 0, w: 1000, h: 500 };

describe('cue settings in the canvas', () => {
  it('places the cue box from position, size and align as the spec does', () => {
    expect(cueBox(DEFAULT_CUE_SETTINGS)).toEqual({ left: 0, width: 100 });
    expect(cueBox({ ...DEFAULT_CUE_SETTINGS, size: 40 })).toEqual({ left: 30, width: 40 });
    expect(cueBox({ ...DEFAULT_CUE_SETTINGS, size: 40, align: 'start' })).toEqual({ left: 0, width: 40 });
    expect(cueBox({ ...DEFAULT_CUE_SETTINGS, size: 40, align: 'end' })).toEqual({ left: 60, width: 40 });
    expect(cueBox({ ...DEFAULT_CUE_SETTINGS, position: 30, positionAlign: 'line-left', size: 50 })).toEqual({
      left: 30,
      width: 50,
    });
    // A box centred at 20% can be at most 40% wide.
    expect(cueBox({ ...DEFAULT_CUE_SETTINGS, position: 20 })).toEqual({ left: 0, width: 40 });
  });

  it('draws at the bottom by default, at line:N% from the top, and at line numbers', () => {
    const bottom = layoutCue(ctx, cue('Hello'), picture, 84)!.lines[0]!.box;
    expect(bottom.y + bottom.h).toBeLessThanOrEqual(500 - 84);
    expect(bottom.y + bottom.h).toBeGreaterThan(500 - 84 - 30);
    const top = layoutCue(ctx, cue('Hello', { line: 10, snapToLines: false }), picture, 84).lines[0]!.box;
    expect(top.y).toBeCloseTo(50);
    const centred = layoutCue(
      ctx,
      cue('Hello', { line: 50, snapToLines: false, lineAlign: 'center' }),
      picture,
      84,
    ).lines[0]!.box;
    expect(centred.y + centred.h / 2).toBeCloseTo(250);
    const second = layoutCue(ctx, cue('Hello', { line: 1 }), picture, 84).lines[0]!.box;
    expect(second.y).toBeCloseTo(second.h); // line 0 is the first line, line 1 the one below
    // Never under the control bar, whatever the line says.
    const low = layoutCue(ctx, cue('Hello', { line: 100, snapToLines: false }), picture, 84).lines[0]!.box;
    expect(low.y + low.h).toBeLessThanOrEqual(500 - 84);
  });

  it('aligns the text in its box and wraps it to the size', () => {
    const left = layoutCue(ctx, cue('Hi', { align: 'left', size: 50, position: 10 }), picture, 0).lines[0]!;
    expect(left.box.x).toBeCloseTo(100);
    const right = layoutCue(ctx, cue('Hi', { align: 'right' }), picture, 0).lines[0]!;
    expect(right.box.x + right.box.w).toBeCloseTo(1000);
    // 30% of 1000 px, less the padding, is room for 28 characters of 10 px: two words of 10 a line.
    const wrapped = layoutCue(
      ctx,
      cue('aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd', { size: 30 }),
      picture,
      0,
    );
    expect(wrapped.lines.map((l) => l.text)).toEqual(['aaaaaaaaaa bbbbbbbbbb', 'cccccccccc dddddddddd']);
    for (const line of wrapped.lines) {
      expect(line.box.x).toBeGreaterThanOrEqual(350 - 1);
      expect(line.box.x + line.box.w).toBeLessThanOrEqual(650 + 1);
    }
  });
});
