import { describe, expect, it } from 'vitest';
import { Coverage, PlayedTime } from '../player/coverage';
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

describe("played time from the element's time updates", () => {
  const playing = { paused: false, rate: 1 };
  /** Time updates every 250 ms of the wall clock, the playhead moving `speed` seconds per second. */
  function play(p: PlayedTime, from: number, to: number, startWall: number, speed = 1): number {
    let wall = startWall;
    for (let t = from; t <= to + 1e-9; t += 0.25 * speed, wall += 250) p.update(t, wall, playing);
    return wall - 250;
  }

  it('counts what plays on from a seek target before the element says the seek is done (WebKit)', () => {
    const c = new Coverage();
    const p = new PlayedTime(c);
    let wall = play(p, 0, 5, 0); // to the checkpoint at 5 s
    // A wrong answer rewinds to 1 s; WebKit plays 1 s to 3 s while still "seeking", then 3 s to 5 s.
    c.take();
    p.seek(1, (wall += 1000));
    wall = play(p, 1, 3, wall + 250);
    play(p, 3, 5, wall + 250);
    expect(c.take()).toEqual([[1, 5]]);
  });

  it('counts nothing across a seek, a jump faster than the clock, or while paused', () => {
    const c = new Coverage();
    const p = new PlayedTime(c);
    const wall = play(p, 0, 2, 0);
    p.seek(10, wall + 100);
    p.update(10.25, wall + 350, playing);
    // The element jumped 20 s in 250 ms without a seek event (a gap skipped, a lost update): not played.
    p.update(30.25, wall + 600, playing);
    p.update(31, wall + 2000, { paused: true, rate: 1 });
    p.update(32, wall + 3000, { paused: true, rate: 1 });
    expect(c.take()).toEqual([
      [0, 2],
      [10, 10.25],
    ]);
  });

  it('allows for the playback speed', () => {
    const c = new Coverage();
    const p = new PlayedTime(c);
    p.update(0, 0, { paused: false, rate: 2 });
    p.update(1, 500, { paused: false, rate: 2 }); // 1 s in 500 ms at 2x: played (at 1x it is not)
    p.update(2, 750, playing); // at 1x now: 1 s in 250 ms is a jump
    expect(c.take()).toEqual([[0, 1]]);
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
