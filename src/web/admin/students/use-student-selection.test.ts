import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStudentSelection } from './use-student-selection';

describe('useStudentSelection', () => {
  it('ticks and unticks students across pages, and clears', () => {
    const { result } = renderHook(() => useStudentSelection());
    expect(result.current.allOf([])).toBe(false);
    act(() => result.current.toggle(['a', 'b'], true));
    act(() => result.current.toggle(['c'], true));
    expect(result.current.allOf(['a', 'b'])).toBe(true);
    act(() => result.current.toggle(['a'], false));
    expect(result.current.allOf(['a', 'b'])).toBe(false);
    expect(result.current.someOf(['a', 'b'])).toBe(true);
    expect([...result.current.selected]).toEqual(['b', 'c']);
    act(() => result.current.clear());
    expect(result.current.selected.size).toBe(0);
  });
});
