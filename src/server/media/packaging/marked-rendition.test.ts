import { describe, expect, it } from 'vitest';
import { markingGroups } from './marked-rendition';

describe('markingGroups', () => {
  const wide = (height: number) => ({ width: Math.round((height * 16) / 9), height });

  it('marks a 720p ladder in one ffmpeg process', () => {
    expect(markingGroups([720, 360, 540], wide(720))).toEqual([[720, 540, 360]]);
  });

  it('gives a 1080p top rung its own process, then the rest together', () => {
    expect(markingGroups([1080, 360, 540, 720], wide(1080))).toEqual([[1080], [720, 540, 360]]);
  });

  it('runs a rung larger than the budget alone', () => {
    expect(markingGroups([2160, 1080, 720, 540, 360], wide(2160))).toEqual([[2160], [1080], [720, 540, 360]]);
  });

  it('keeps a portrait screen recording to the same budget', () => {
    // 1080 wide x 1920 high: each rung is 9/16 as wide as it is high.
    expect(markingGroups([1920, 1080, 720], { width: 1080, height: 1920 })).toEqual([[1920], [1080, 720]]);
  });
});
