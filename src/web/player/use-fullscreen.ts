import { useCallback, useEffect, useState, type RefObject } from 'react';

export interface Fullscreen {
  /** The browser shows `rootRef` fullscreen. */
  native: boolean;
  /** Where the Fullscreen API is missing or refused (iOS): the player covers the viewport with CSS. */
  pseudo: boolean;
  toggle(): void;
}

/** Fullscreen on the player's root (never on the <video>), with a CSS fallback. */
export function useFullscreen(rootRef: RefObject<HTMLElement | null>): Fullscreen {
  const [native, setNative] = useState(false);
  const [pseudo, setPseudo] = useState(false);

  useEffect(() => {
    const onChange = () => setNative(document.fullscreenElement === rootRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [rootRef]);

  const toggle = useCallback(() => {
    const root = rootRef.current;
    if (!root) return;
    if (document.fullscreenElement) {
      void document.exitFullscreen();
    } else if (pseudo) {
      setPseudo(false);
    } else if (document.fullscreenEnabled && root.requestFullscreen) {
      root.requestFullscreen().catch(() => setPseudo(true));
    } else {
      setPseudo(true);
    }
  }, [rootRef, pseudo]);

  return { native, pseudo, toggle };
}
