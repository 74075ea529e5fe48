import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLAYER_CONTROLS_HIDE_MS } from '../../contract/constants';
import { useControlsVisibility } from './use-controls-visibility';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('useControlsVisibility', () => {
  it('hides the controls after a while without activity while playing; activity brings them back', () => {
    const { result } = renderHook(() => useControlsVisibility(true));
    expect(result.current.visible).toBe(true);
    act(() => vi.advanceTimersByTime(PLAYER_CONTROLS_HIDE_MS - 100));
    expect(result.current.visible).toBe(true);
    act(() => vi.advanceTimersByTime(200));
    expect(result.current.visible).toBe(false);
    act(() => result.current.poke());
    expect(result.current.visible).toBe(true);
  });

  it('keeps them while paused, and while focus is inside them', () => {
    const { result, rerender } = renderHook(({ playing }) => useControlsVisibility(playing), {
      initialProps: { playing: false },
    });
    act(() => vi.advanceTimersByTime(PLAYER_CONTROLS_HIDE_MS * 2));
    expect(result.current.visible).toBe(true);
    act(() => result.current.setFocusInside(true));
    rerender({ playing: true });
    expect(result.current.visible).toBe(true);
    act(() => result.current.setFocusInside(false));
    expect(result.current.visible).toBe(false);
  });
});
