import { describe, expect, it } from 'vitest';
import { countCells, mergeRanges } from './watch-cells';

describe('watched seconds bitmap', () => {
  it('marks the seconds a range covers at least half of, and counts new ones only', () => {
    const first = mergeRanges(null, [[0, 10.3]], 100);
    expect([countCells(first.cells), first.newSeconds]).toEqual([10, 10]);
    // The next save starts where the last one ended: the split second is marked once.
    const second = mergeRanges(first.cells, [[10.3, 20.6]], 100);
    expect([countCells(second.cells), second.newSeconds]).toEqual([21, 11]);
    const again = mergeRanges(second.cells, [[0, 21]], 100);
    expect([countCells(again.cells), again.newSeconds]).toEqual([21, 0]);
  });

  it('gives a bucket a viewer only for the first second marked in it', () => {
    const a = mergeRanges(null, [[2, 7]], 100);
    expect(a.newViewerBuckets).toEqual([0, 1]);
    const b = mergeRanges(a.cells, [[7, 12]], 100);
    expect(b.newViewerBuckets).toEqual([2]);
    expect(b.playedMs).toEqual([
      [1, 3000],
      [2, 2000],
    ]);
  });

  it('counts every play of a bucket in milliseconds, split at bucket edges', () => {
    const d = mergeRanges(
      null,
      [
        [0, 5],
        [5, 7.5],
        [9, 10],
      ],
      10,
    );
    expect(d.playedMs).toEqual([
      [0, 5000],
      [1, 3500],
    ]);
    expect(d.playedSeconds).toBe(8.5);
  });

  it('never marks past the end of the video, nor more bytes than it needs', () => {
    const d = mergeRanges(null, [[0, 12]], 9.2);
    expect(d.cells.length).toBe(2);
    expect(countCells(d.cells)).toBe(9);
  });
});
