import { useEffect, useRef, useState } from 'react';
import type { Captions } from './captions';

/** The label of the caption track shown, or undefined while captions are off. */
export function captionLabel(captions: Captions | undefined): string | undefined {
  return captions?.tracks.find((t) => t.language === captions.language)?.label;
}

/**
 * State changes a screen reader user cannot see (playing, muted, the captions shown), said once in
 * the player's live region: returns the sentence to put there.
 */
export function useAnnouncements(playing: boolean, muted: boolean, captions: Captions | undefined): string {
  const [announcement, setAnnouncement] = useState('');
  const label = captionLabel(captions);
  const said = useRef({ playing, muted, captions: label });
  useEffect(() => {
    const before = said.current;
    said.current = { playing, muted, captions: label };
    if (before.playing !== playing) setAnnouncement(playing ? 'Playing' : 'Paused');
    else if (before.muted !== muted) setAnnouncement(muted ? 'Muted' : 'Sound on');
    else if (before.captions !== label) setAnnouncement(label ? `Captions on: ${label}` : 'Captions off');
  }, [playing, muted, label]);
  return announcement;
}
