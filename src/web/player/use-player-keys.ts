import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { PLAYER_SEEK_STEP_S } from '../../contract/constants';
import type { Captions } from './captions';

/** One keyboard shortcut of the player. A new one (say N for a note) is one more entry in the list. */
export interface KeyBinding {
  /** `event.key` values; single characters in lower case (K and k are the same key). */
  keys: string[];
  run(): void;
  /** Off for now (C without captions): the key is left to the page. */
  enabled?(): boolean;
  /** A focused button is pressed by this key (Space), as any button is: leave it to the button. */
  buttonsOwnIt?: boolean;
  /** Keep the key from the element it was pressed on (the seek slider moves by its own small step). */
  stopPropagation?: boolean;
  /** Said after the standard keys in the player's description for screen readers ("N adds a note"). */
  hint?: string;
}

type KeyEventLike = Pick<globalThis.KeyboardEvent, 'key' | 'target' | 'altKey' | 'ctrlKey' | 'metaKey'> & {
  preventDefault(): void;
  stopPropagation(): void;
};

/** Whether a key press belongs to something that handles keys itself (fields, the volume slider). */
export function ownsKeys(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    !!target.closest(
      'input, textarea, select, [contenteditable="true"], [data-volume], [role="menu"], [role="dialog"]',
    )
  );
}

/** Runs the binding of `event`'s key, if any applies; true when the key was the player's. */
export function handlePlayerKey(bindings: readonly KeyBinding[], event: KeyEventLike): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey) return false;
  if (ownsKeys(event.target)) return false;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const binding = bindings.find((b) => b.keys.includes(key) && (b.enabled?.() ?? true));
  if (!binding) return false;
  if (binding.buttonsOwnIt && event.target instanceof HTMLElement && event.target.closest('button'))
    return false;
  event.preventDefault();
  if (binding.stopPropagation) event.stopPropagation();
  binding.run();
  return true;
}

/**
 * The player's keys, taken while focus is inside the player and while nothing in particular has
 * focus (the page itself). `onHandled` runs after each key the player took (shows the controls).
 * Returns the player root's onKeyDownCapture.
 */
export function usePlayerKeys(bindings: readonly KeyBinding[], onHandled: () => void) {
  // The listeners are made once; this points them at the current bindings.
  const latest = useRef({ bindings, onHandled });
  latest.current = { bindings, onHandled };

  const handle = useCallback((event: KeyEventLike) => {
    if (handlePlayerKey(latest.current.bindings, event)) latest.current.onHandled();
  }, []);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.target === document.body || event.target === document.documentElement) handle(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handle]);

  return useCallback((event: KeyboardEvent<HTMLElement>) => handle(event), [handle]);
}

/** What the player's own keys do to it. */
export interface KeyTargets {
  togglePlay(): void;
  seekBy(delta: number): void;
  toggleMute(): void;
  toggleFullscreen(): void;
  captions?: Captions;
}

/** The standard keys: Space or K, F, M, C (with captions), Left and Right (PLAYER_SEEK_STEP_S). */
export function standardKeys(to: KeyTargets): KeyBinding[] {
  const { captions } = to;
  return [
    { keys: [' ', 'Spacebar'], run: to.togglePlay, buttonsOwnIt: true },
    { keys: ['k'], run: to.togglePlay },
    { keys: ['f'], run: to.toggleFullscreen },
    { keys: ['m'], run: to.toggleMute },
    { keys: ['c'], run: () => captions?.toggle(), enabled: () => !!captions?.tracks.length },
    { keys: ['ArrowRight'], run: () => to.seekBy(PLAYER_SEEK_STEP_S), stopPropagation: true },
    { keys: ['ArrowLeft'], run: () => to.seekBy(-PLAYER_SEEK_STEP_S), stopPropagation: true },
  ];
}

/** What the keys do, for screen readers (the player's aria-describedby); `extra`: the hints of added keys. */
export function keyHint(hasCaptions: boolean, extra: readonly KeyBinding[] = []): string {
  const more = extra.flatMap((binding) => (binding.hint ? [`, ${binding.hint}`] : [])).join('');
  return (
    'Space or K plays or pauses. The left and right arrow keys jump 5 seconds. F toggles fullscreen, M mutes' +
    (hasCaptions ? ', C turns captions on or off' : '') +
    more +
    '.'
  );
}
