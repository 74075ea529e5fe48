import type { RefObject } from 'react';

/** Whether a key press belongs to something that handles keys itself (fields, menus, dialogs). */
export function ownsKeys(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    !!target.closest('input, textarea, select, [contenteditable="true"], [role="menu"], [role="dialog"]')
  );
}

/** The player's current moment, and pausing it while the student types. */
export function useMoment(mediaRef: RefObject<HTMLVideoElement | null>) {
  return {
    now: () => mediaRef.current?.currentTime ?? 0,
    /** Pauses the video; answers whether it was playing (to resume after). */
    pause: () => {
      const video = mediaRef.current;
      const wasPlaying = !!video && !video.paused;
      video?.pause();
      return wasPlaying;
    },
    resume: () => void mediaRef.current?.play().catch(() => {}),
    seek: (t: number) => {
      const video = mediaRef.current;
      if (video) video.currentTime = t;
    },
  };
}
