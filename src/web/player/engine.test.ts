import { describe, expect, it } from 'vitest';
import { startPosition } from './engine';

describe('startPosition', () => {
  it('starts where asked while the length is unknown or leaves room to play', () => {
    expect(startPosition(42, 0)).toBe(42);
    expect(startPosition(42, NaN)).toBe(42);
    expect(startPosition(42, 60)).toBe(42);
    expect(startPosition(58.9, 60)).toBe(58.9);
  });

  it('starts at the beginning for no start, or one in the last second', () => {
    expect(startPosition(0, 60)).toBe(0);
    expect(startPosition(59, 60)).toBe(0);
    expect(startPosition(59.5, 60)).toBe(0);
    expect(startPosition(75, 60)).toBe(0);
  });
});
