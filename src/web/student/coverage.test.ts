import { describe, expect, it } from 'vitest';
import { Coverage } from '../player/coverage';
import { resumePosition } from './use-watch-progress';

describe('watched coverage', () => {
  it('counts a replayed part once', () => {
    const c = new Coverage();
    c.add(0, 10);
    c.add(5, 12);
    c.add(0, 3);
    expect(c.total()).toBe(12);
  });

  it('adds separate parts and merges touching ones', () => {
    const c = new Coverage();
    c.add(30, 40);
    c.add(0, 10);
    c.add(10, 20);
    expect(c.total()).toBe(30);
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
