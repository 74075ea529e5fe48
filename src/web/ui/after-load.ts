import { useCallback, useEffect, useState } from 'react';

/** How long after the page's load event the code a page does not need at first waits (its first requests go first). */
export const SETTLE_MS = 3_000;

/**
 * Calls `callback` once the page has loaded, `SETTLE_MS` have passed and the browser is idle: the
 * moment to fetch code that is not needed for the first screen (the toast container, the account
 * menu, the video player) without slowing that screen down on a phone. Returns a cancel function.
 */
export function afterPageSettles(callback: () => void, settleMs = SETTLE_MS): () => void {
  let timer: number | undefined;
  let idle: number | undefined;
  const whenIdle = () => {
    if (window.requestIdleCallback) idle = window.requestIdleCallback(callback, { timeout: 2_000 });
    else callback();
  };
  const afterLoad = () => {
    timer = window.setTimeout(whenIdle, settleMs);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return () => {
    window.removeEventListener('load', afterLoad);
    window.clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}

/** True once the page has settled (afterPageSettles), or as soon as `now` is called (a user reached for it). */
export function useAfterPageSettles(): [ready: boolean, now: () => void] {
  const [ready, setReady] = useState(false);
  useEffect(() => (ready ? undefined : afterPageSettles(() => setReady(true))), [ready]);
  const now = useCallback(() => setReady(true), []);
  return [ready, now];
}
