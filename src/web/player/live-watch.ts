import { useSyncExternalStore } from 'react';

/**
 * Whether a player on the page is playing a live stream (a class under way). The opening-hours gate
 * keeps such a page at closing time: the server keeps a class's playlists and keys open to its end
 * (server/http/opening-gate.ts), so the viewer watches it to its end instead of being sent to the maintenance
 * screen; once the stream has its end, the gate closes as usual.
 */
let holders = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Marks a live stream as being watched; the function it answers lets go of it. */
export function holdLiveWatch(): () => void {
  holders++;
  notify();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holders--;
    notify();
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True while some player on the page plays a live stream. */
export function useWatchingLive(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => holders > 0,
    () => false,
  );
}
