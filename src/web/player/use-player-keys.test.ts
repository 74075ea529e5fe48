import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  handlePlayerKey,
  keyHint,
  ownsKeys,
  standardKeys,
  usePlayerKeys,
  type KeyBinding,
} from './use-player-keys';

function press(key: string, target: EventTarget | null = document.body, mods: Partial<KeyboardEvent> = {}) {
  return {
    key,
    target,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    ...mods,
    preventDefault: vi.fn(),
    stopPropagation: vi.fn(),
  };
}

function targets(tracks = 0) {
  return {
    togglePlay: vi.fn(),
    seekBy: vi.fn(),
    toggleMute: vi.fn(),
    toggleFullscreen: vi.fn(),
    captions: tracks
      ? ({ tracks: [{ language: 'en', label: 'English' }], toggle: vi.fn() } as never)
      : undefined,
  };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('player keys', () => {
  it('maps Space, K, F, M and the arrows; K and k are one key', () => {
    const to = targets();
    const keys = standardKeys(to);
    for (const key of [' ', 'K', 'k']) expect(handlePlayerKey(keys, press(key))).toBe(true);
    expect(to.togglePlay).toHaveBeenCalledTimes(3);
    handlePlayerKey(keys, press('f'));
    handlePlayerKey(keys, press('m'));
    expect([to.toggleFullscreen, to.toggleMute].map((f) => f.mock.calls.length)).toEqual([1, 1]);
    const right = press('ArrowRight');
    handlePlayerKey(keys, right);
    handlePlayerKey(keys, press('ArrowLeft'));
    expect(to.seekBy.mock.calls).toEqual([[5], [-5]]);
    expect(right.preventDefault).toHaveBeenCalled();
    expect(right.stopPropagation).toHaveBeenCalled();
  });

  it('takes C only when the video has captions', () => {
    expect(handlePlayerKey(standardKeys(targets()), press('c'))).toBe(false);
    const to = targets(1);
    expect(handlePlayerKey(standardKeys(to), press('c'))).toBe(true);
    expect((to.captions as unknown as { toggle: ReturnType<typeof vi.fn> }).toggle).toHaveBeenCalled();
  });

  it('leaves keys with modifiers, fields, the volume slider, and Space on a button alone', () => {
    const to = targets();
    const keys = standardKeys(to);
    document.body.innerHTML =
      '<input id="i"><div data-volume><span id="v"></span></div><button id="b"></button>';
    const input = document.getElementById('i');
    const volume = document.getElementById('v');
    const button = document.getElementById('b');
    expect(ownsKeys(input)).toBe(true);
    expect(handlePlayerKey(keys, press('k', input))).toBe(false);
    expect(handlePlayerKey(keys, press('ArrowLeft', volume))).toBe(false);
    expect(handlePlayerKey(keys, press(' ', button))).toBe(false);
    expect(handlePlayerKey(keys, press('k', button))).toBe(true);
    expect(handlePlayerKey(keys, press('f', document.body, { ctrlKey: true }))).toBe(false);
    expect(handlePlayerKey(keys, press('x'))).toBe(false);
  });

  it('listens on the page while nothing has focus, with the current bindings, and reports handled keys', () => {
    const first = vi.fn();
    const second = vi.fn();
    const handled = vi.fn();
    const { rerender, unmount } = renderHook(({ run }) => usePlayerKeys([{ keys: ['n'], run }], handled), {
      initialProps: { run: first },
    });
    rerender({ run: second });
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'N', bubbles: true }));
    expect([first.mock.calls.length, second.mock.calls.length, handled.mock.calls.length]).toEqual([0, 1, 1]);
    unmount();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'n', bubbles: true }));
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('describes the keys, with C only for captions and the hints of added keys', () => {
    expect(keyHint(false)).toBe(
      'Space or K plays or pauses. The left and right arrow keys jump 5 seconds. F toggles fullscreen, M mutes.',
    );
    const note: KeyBinding = { keys: ['n'], run: () => {}, hint: 'N adds a note' };
    expect(keyHint(true, [note])).toMatch(/M mutes, C turns captions on or off, N adds a note\.$/);
  });
});
