import { describe, expect, it } from 'vitest';
import { formatClock, parseDuration } from './format';
import { fitRect } from './renderer';
import { watermarkText } from './watermark';

describe('watermark text', () => {
  it("is the student's roll number", () => {
    expect(watermarkText('FS24-017')).toBe('FS24-017');
    expect(watermarkText('  FS24-017 ')).toBe('FS24-017');
  });

  it("is 'Confidential' when the roll number is missing or could not be loaded", () => {
    for (const missing of [undefined, null, '', '   ']) expect(watermarkText(missing)).toBe('Confidential');
  });
});

describe('player clock', () => {
  it('shows mm:ss, and h:mm:ss from an hour on', () => {
    expect(formatClock(0)).toBe('00:00');
    expect(formatClock(65.9)).toBe('01:05');
    expect(formatClock(3_725)).toBe('1:02:05');
    expect(formatClock(Number.NaN)).toBe('00:00');
  });

  it('reads the server duration text', () => {
    expect(parseDuration('12:34')).toBe(754);
    expect(parseDuration('01:00:05')).toBe(3_605);
    expect(parseDuration('nonsense')).toBe(0);
  });
});

describe('letterboxing', () => {
  it('fits the picture inside the canvas, centred', () => {
    expect(fitRect(1600, 900, 640, 360)).toEqual({ x: 0, y: 0, w: 1600, h: 900 });
    const tall = fitRect(1000, 1000, 1920, 1080);
    expect(tall.x).toBeCloseTo(0);
    expect(tall.w).toBeCloseTo(1000);
    expect(tall.y).toBeCloseTo(218.75);
    expect(tall.h).toBeCloseTo(562.5);
  });
});
