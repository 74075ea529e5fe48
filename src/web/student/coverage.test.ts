import { describe, expect, it } from 'vitest';
import { Coverage } from '../player/coverage';
import { resumePosition } from './use-watch-progress';

describe('watched coverage', () => {
  it.each([
    [
      'counts a replayed part once',
      [
        [0, 10],
        [5, 12],
        [0, 3],
      ],
      12,
    ],
    [
      'adds separate parts and merges touching ones',
      [
        [30, 40],
        [0, 10],
        [10, 20],
      ],
      30,
    ],
  ] as const)('%s', (_, parts, total) => {
    const c = new Coverage();
    for (const [from, to] of parts) c.add(from, to);
    expect(c.total()).toBe(total);
  });
});

describe('ranges for the next save', () => {
  it('hands over what was played since the last save, merged, once', () => {
    const c = new Coverage();
    c.add(0, 4.0004);
    c.add(4.0004, 8);
    c.add(20, 25);
    expect(c.take()).toEqual([
      [0, 8],
      [20, 25],
    ]);
    expect(c.hasPending()).toBe(false);
    c.add(5, 9);
    expect(c.take()).toEqual([[5, 9]]);
    expect(c.total()).toBe(14);
  });

  it('keeps the ranges of a save that never arrived for the next one', () => {
    const c = new Coverage();
    c.add(0, 10);
    const lost = c.take();
    c.add(10, 20);
    c.giveBack(lost);
    expect(c.take()).toEqual([[0, 20]]);
  });
});

describe('resume position', () => {
  const at = (position: number) => ({ position, watched: 0, completed: false });
  it('resumes where the student stopped', () => expect(resumePosition(at(42), 600)).toBe(42));
  it('starts over near the start or the end', () => {
    expect(resumePosition(at(3), 600)).toBe(0);
    expect(resumePosition(at(598), 600)).toBe(0);
  });
});
