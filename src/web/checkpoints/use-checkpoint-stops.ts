import { useEffect, useRef, useState, type RefObject } from 'react';
import type { StudentCheckpoint } from '../../contract/checkpoints';

/** How close to a checkpoint's moment playback counts as having reached it. */
const REACHED = 0.05;

/**
 * Stops the lecture at its checkpoints: a required one not passed stops it whenever the picture
 * reaches or passes it (a seek past it comes back to it); one not required stops it once, when
 * playback crosses it. Staff see every checkpoint as passed and are never stopped. The server
 * holds the keys past a required checkpoint either way: this is the player's courtesy.
 */
export function useCheckpointStops(
  mediaRef: RefObject<HTMLVideoElement | null>,
  checkpoints: readonly StudentCheckpoint[] | undefined,
) {
  const [active, setActive] = useState<StudentCheckpoint | null>(null);
  const seen = useRef(new Set<string>());
  const last = useRef(0);
  const activeRef = useRef(active);
  activeRef.current = active;

  useEffect(() => {
    const video = mediaRef.current;
    if (!video || !checkpoints?.length) return;
    const check = () => {
      const now = video.currentTime;
      const before = last.current;
      last.current = now;
      const open = activeRef.current;
      if (open) {
        // A seek past the open question (the seek bar, a key): back to its moment.
        if (now > open.t + 0.3) {
          video.pause();
          video.currentTime = open.t;
        }
        return;
      }
      const held = checkpoints.find((c) => c.required && !c.passed && now >= c.t - REACHED);
      const crossed = checkpoints.find(
        (c) =>
          !c.required &&
          !c.passed &&
          !seen.current.has(c._id) &&
          before < c.t &&
          now >= c.t - REACHED &&
          now - before < 2,
      );
      const stop = held ?? crossed;
      if (!stop) return;
      seen.current.add(stop._id);
      video.pause();
      if (Math.abs(video.currentTime - stop.t) > REACHED) video.currentTime = stop.t;
      setActive(stop);
    };
    video.addEventListener('timeupdate', check);
    video.addEventListener('seeked', check);
    video.addEventListener('seeking', check);
    check();
    return () => {
      video.removeEventListener('timeupdate', check);
      video.removeEventListener('seeked', check);
      video.removeEventListener('seeking', check);
    };
  }, [mediaRef, checkpoints]);

  return {
    active,
    /** Closes the question: after a pass, or a skip of one not required; playback goes on. */
    done(play = true) {
      setActive(null);
      if (play) void mediaRef.current?.play().catch(() => {});
    },
    /** A wrong answer with a rewatch moment: back there, playing. */
    rewind(to: number) {
      setActive(null);
      const video = mediaRef.current;
      if (!video) return;
      last.current = to;
      video.currentTime = to;
      void video.play().catch(() => {});
    },
  };
}
