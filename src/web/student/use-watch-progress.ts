import { useEffect, useRef, type RefObject } from 'react';
import {
  PROGRESS_SAVE_INTERVAL_MS,
  saveLimits,
  type ProgressBody,
  type VideoProgress,
} from '../../contract/progress';
import { ApiError } from '../api/client';
import { saveProgress } from '../api/student';
import { listen } from '../ui/listen';
import { Coverage, PlayedTime } from '../player/coverage';
import type { PlaybackHealth } from '../player/playback-health';

/** How long `settled` waits for saves on their way. */
const SETTLE_PATIENCE_MS = 10_000;

/**
 * Where to start a video: the saved position, unless it is near either end (then from the start).
 */
export function resumePosition(progress: VideoProgress, durationSeconds: number): number {
  const { position } = progress;
  if (position < 5) return 0;
  if (durationSeconds > 0 && position > durationSeconds - 5) return 0;
  return position;
}

/**
 * Tracks how much of the video in `videoRef` is actually played (seeks add nothing, replays count
 * once per visit) and saves position, watched time and the ranges played since the previous save
 * every 10 s while playing, on pause and end, when the page is hidden and when the player goes away.
 * Ranges of a save that failed on the way go with the next one; ranges the server refused (400) are
 * dropped, or they would be refused again forever. With `health`, a save also carries how playback
 * went (startup, stalls, an error: playback-health.ts) whenever there is something to report; an
 * error is reported at once. Returns `settled`: resolves once the saves on their way have arrived (a
 * checkpoint's answer waits for the pause's save that carries the rewatch it asked for).
 */
export function useWatchProgress(
  videoRef: RefObject<HTMLVideoElement | null>,
  videoId: string,
  initial: VideoProgress,
  onSaved: (progress: VideoProgress) => void,
  health?: PlaybackHealth,
): { settled(): Promise<void> } {
  const onSavedRef = useRef(onSaved);
  const inFlight = useRef(new Set<Promise<unknown>>());
  useEffect(() => {
    onSavedRef.current = onSaved;
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const coverage = new Coverage();
    const played = new PlayedTime(coverage);
    let position = initial.position;
    let savedKey = `${initial.position.toFixed(1)}|${initial.watched.toFixed(1)}`;

    const watched = () => {
      const total = initial.watched + coverage.total();
      return Number.isFinite(video.duration) && video.duration > 0 ? Math.min(total, video.duration) : total;
    };

    const onTime = () => {
      const t = video.currentTime;
      played.update(t, performance.now(), { paused: video.paused, rate: video.playbackRate });
      // Before the first frame (and the resume seek) the element reads 0: not a position worth saving.
      if (video.readyState >= 2) position = t;
    };
    const onSeeking = () => {
      played.seek(video.currentTime, performance.now()); // a seek adds nothing to the time played
      // The seek's target is already the position: a pause before its data arrives saves it, not the spot left.
      position = video.currentTime;
    };

    /** `final`: a pause, the end or leaving, where the played time not yet reported goes too. */
    const save = (keepalive = false, final = keepalive) => {
      const pos = Math.max(0, position);
      if (!Number.isFinite(pos)) return;
      const key = `${pos.toFixed(1)}|${watched().toFixed(1)}`;
      const changed = key !== savedKey || coverage.hasPending();
      const report = health?.take(final);
      if (!changed && !report) return;
      savedKey = key;
      const ranges = coverage.take().slice(-saveLimits.ranges);
      const body: ProgressBody = {
        videoId,
        position: pos,
        watched: watched(),
        ranges,
        rate: Math.min(2, Math.max(0.25, video.playbackRate)),
      };
      if (report) body.health = report;
      const saving = saveProgress(body, keepalive).then(
        (saved) => onSavedRef.current(saved),
        (error: unknown) => {
          savedKey = ''; // try again with the next save
          if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) {
            coverage.giveBack(ranges);
            if (report) health?.giveBack(report);
          }
        },
      );
      inFlight.current.add(saving);
      void saving.finally(() => inFlight.current.delete(saving));
    };
    const saveSoon = () => save(false, true);
    const saveOnHide = () => {
      if (document.visibilityState === 'hidden') save(true);
    };
    const saveOnLeave = () => save(true);

    const stopHealth = health?.watch(video);
    if (health) health.urgent = () => save();
    const timer = setInterval(() => {
      if (!video.paused) save();
    }, PROGRESS_SAVE_INTERVAL_MS);
    const listening = new AbortController();
    listen(
      video,
      {
        timeupdate: onTime,
        seeking: onSeeking,
        seeked: onTime,
        play: onTime,
        pause: saveSoon,
        ended: saveSoon,
      },
      listening.signal,
    );
    listen(document, { visibilitychange: saveOnHide }, listening.signal);
    listen(window, { pagehide: saveOnLeave }, listening.signal);
    return () => {
      clearInterval(timer);
      listening.abort();
      save(true);
      stopHealth?.();
      if (health) health.urgent = undefined;
    };
    // One tracker per video: `initial` is read when it starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [videoRef, videoId]);
  return {
    // At most 10 s: a save stuck on a dead connection must not hold the answer for good.
    settled: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const patience = new Promise<void>((resolve) => (timer = setTimeout(resolve, SETTLE_PATIENCE_MS)));
      await Promise.race([Promise.all(inFlight.current), patience]);
      clearTimeout(timer);
    },
  };
}
