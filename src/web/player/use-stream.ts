import { useEffect, useState, type RefObject } from 'react';
import { attachStream, type AttachOptions, type EngineKind } from './engine';
import { describeMedia, logMediaEvents, playerLog } from './player-log';
import type { Recovery } from './use-recovery';

/** Where to start (engine.ts's startPosition rule) is the engine's to apply. */
export interface StreamOptions extends Pick<AttachOptions, 'startAt' | 'durationHint' | 'onLive' | 'onHeld'> {
  /** The HLS master playlist. */
  src: string;
  autoPlay?: boolean;
}

/**
 * Attaches `src` to the <video> (hls.js, or native HLS where there is no MSE; see engine.ts) and
 * again on each Try again (`recovery.attempt`); returns the engine in use once attached.
 * `startAt` and `autoPlay` are read when a stream is attached.
 */
export function useStream(
  videoRef: RefObject<HTMLVideoElement | null>,
  { src, startAt = 0, durationHint = 0, autoPlay = false, onLive, onHeld }: StreamOptions,
  recovery: Recovery,
): EngineKind | null {
  const [engine, setEngine] = useState<EngineKind | null>(null);
  const { attempt, clear, fail, unsupported } = recovery;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    let detach: (() => void) | undefined;
    const current = () => !cancelled;
    const start = async () => {
      try {
        const attached = await attachStream(video, src, {
          onFatal: (details) => void fail(details, src, current),
          startAt,
          durationHint,
          onLive: (edge) => current() && onLive?.(edge),
          onHeld,
        });
        if (cancelled) return attached.destroy();
        detach = attached.destroy;
        setEngine(attached.kind);
        playerLog(`attached ${attached.kind} ${describeMedia(video)}`);
        if (autoPlay)
          video.play().then(
            () => playerLog(`autoplay resolved ${describeMedia(video)}`),
            // blocked autoplay leaves the big play button
            (err: unknown) => playerLog(`autoplay rejected ${String(err)} ${describeMedia(video)}`),
          );
      } catch (err) {
        if (cancelled) return;
        unsupported((err as Error).message);
      }
    };
    const unlog = logMediaEvents(video);
    clear();
    onLive?.(null);
    void start();
    return () => {
      cancelled = true;
      unlog();
      detach?.();
    };
    // startAt, durationHint, autoPlay and onHeld (stable) only matter when a stream is attached; the recovery callbacks and onLive are stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src, attempt]);

  return engine;
}
