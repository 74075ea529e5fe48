import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('counts one without an s and any other number with one', () => {
    expect(plural(1, 'student')).toBe('1 student');
    expect(plural(0, 'video')).toBe('0 videos');
    expect(plural(2, 'other session')).toBe('2 other sessions');
  });
});
