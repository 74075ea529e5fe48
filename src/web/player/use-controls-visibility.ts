import { useCallback, useEffect, useRef, useState } from 'react';
import { PLAYER_CONTROLS_HIDE_MS } from '../../contract/constants';

export interface ControlsVisibility {
  visible: boolean;
  /** Mouse, touch or key activity: show the controls and start the hide timer again. */
  poke(): void;
  /** Focus entered or left the control bar: they stay while it is inside. */
  setFocusInside(inside: boolean): void;
}

/** Controls hide after PLAYER_CONTROLS_HIDE_MS without activity while playing; paused, they stay. */
export function useControlsVisibility(playing: boolean): ControlsVisibility {
  const [active, setActive] = useState(true);
  const [focusInside, setFocusInside] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const poke = useCallback(() => {
    setActive(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setActive(false), PLAYER_CONTROLS_HIDE_MS);
  }, []);
  useEffect(() => {
    poke();
    return () => clearTimeout(hideTimer.current);
  }, [poke]);

  return { visible: active || !playing || focusInside, poke, setFocusInside };
}
