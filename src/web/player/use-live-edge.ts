import { useCallback, useEffect, useState, type RefObject } from 'react';
import { holdLiveWatch } from './live-watch';
import { seekTo } from './media-actions';

/** Further behind the live edge than this, the player offers "Back to live". */
export const BEHIND_LIVE_SECONDS = 10;
const CHECK_EVERY_MS = 1000;

export interface LiveEdge {
  /** The stream has no end yet (a live class): the LIVE badge shows. */
  live: boolean;
  /** The viewer is more than BEHIND_LIVE_SECONDS behind the live edge (paused, or seeked back). */
  behind: boolean;
  /** Seeks to the live edge and plays. */
  backToLive(): void;
  /** For useStream's `onLive` (stable). */
  onLive(edge: (() => number) | null): void;
}

/**
 * Where the viewer is against a live stream's edge (engine.ts `onLive` says where it is): looked
 * at every second while the stream is live, so "Back to live" shows when they fall behind.
 */
export function useLiveEdge(videoRef: RefObject<HTMLVideoElement | null>): LiveEdge {
  const [edge, setEdge] = useState<{ at: () => number } | null>(null);
  const [behind, setBehind] = useState(false);
  const onLive = useCallback((at: (() => number) | null) => setEdge(at ? { at } : null), []);

  // A live stream keeps the page past closing time (TimeGate) while it plays here.
  useEffect(() => (edge ? holdLiveWatch() : undefined), [edge]);

  useEffect(() => {
    if (!edge) {
      setBehind(false);
      return;
    }
    const check = () => {
      const video = videoRef.current;
      if (!video) return;
      setBehind(edge.at() - video.currentTime > BEHIND_LIVE_SECONDS);
    };
    check();
    const timer = setInterval(check, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [edge, videoRef]);

  const backToLive = useCallback(() => {
    const video = videoRef.current;
    if (!video || !edge) return;
    seekTo(video, edge.at());
    void video.play().catch(() => undefined);
    setBehind(false);
  }, [edge, videoRef]);

  return { live: edge !== null, behind, backToLive, onLive };
}
