import { describe, expect, it } from 'vitest';
import { holdResumePoint } from './hold';

const video = (currentTime: number, ranges: [number, number][]) => ({
  currentTime,
  buffered: {
    length: ranges.length,
    start: (i: number) => ranges[i]![0],
    end: (i: number) => ranges[i]![1],
  } as TimeRanges,
});

describe('holdResumePoint', () => {
  it('brings a picture past the hold back to its moment', () => {
    expect(holdResumePoint(video(11, [[0, 6]]), 5)).toBe(5);
  });

  it('brings a picture with nothing to show before the hold (a start past it) to the hold', () => {
    expect(holdResumePoint(video(0, []), 5)).toBe(5);
    expect(holdResumePoint(video(5, []), 5)).toBe(5);
  });

  it('leaves playback that has media alone: it stops at the checkpoint by itself', () => {
    expect(holdResumePoint(video(3, [[0, 6]]), 5)).toBeNull();
    expect(holdResumePoint(video(5.02, [[0, 6]]), 5)).toBeNull();
  });

  it('does nothing without a hold', () => {
    expect(holdResumePoint(video(11, []), null)).toBeNull();
  });
});
