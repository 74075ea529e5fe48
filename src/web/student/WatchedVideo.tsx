import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { StudentVideo } from '../../contract/media';
import { NO_PROGRESS, type VideoProgress } from '../../contract/progress';
import { call } from '../api/client';
import { useCaptions } from '../player/captions';
import { parseDuration } from '../player/format';
import { PlaybackHealth } from '../player/playback-health';
import { useLearningMarkers } from '../learning/use-learning-markers';
import { usePlayerCheckpoints } from '../checkpoints/PlayerCheckpoints';
import { VideoPlayer } from '../player/VideoPlayer';
import classes from './WatchedVideo.module.css';
import { resumePosition, useWatchProgress } from './use-watch-progress';

// Below the picture, each in a chunk of its own: the video starts without waiting for their code.
const Transcript = lazy(() => import('../player/Transcript').then((m) => ({ default: m.Transcript })));
const LearningPanel = lazy(() =>
  import('../learning/LearningPanel').then((m) => ({ default: m.LearningPanel })),
);

/** Opens a playback session for this viewing; its code is drawn on the picture (undefined until it answers). */
function usePlaybackSession(videoId: string): string | undefined {
  const [code, setCode] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    call('POST /api/playback', { body: { videoId }, signal: controller.signal })
      .then((answer) => setCode(answer.code))
      .catch(() => {}); // no code: the roll number watermark still names the student
    return () => controller.abort();
  }, [videoId]);
  return code;
}

export interface WatchedVideoProps {
  video: StudentVideo;
  watermark: string;
  autoPlay: boolean;
  onSaved(videoId: string, progress: VideoProgress): void;
  /** Seconds to start at instead of the saved position (a search hit). */
  startAt?: number;
  /** The search hit's own second: the transcript brings its cue into view. */
  hitAt?: number;
  /** The course the lecture is watched in: a passed checkpoint refreshes its completion. */
  courseId?: string;
}

/**
 * The player for one video, resuming where the student left off and saving progress as they watch;
 * with captions, the transcript below it (the picture keeps the column's full width).
 */
export function WatchedVideo({
  video,
  watermark,
  autoPlay,
  onSaved,
  startAt,
  hitAt,
  courseId,
}: WatchedVideoProps) {
  const mediaRef = useRef<HTMLVideoElement | null>(null);
  const initial = video.progress ?? NO_PROGRESS;
  const length = parseDuration(video.duration);
  // One tracker per video shown (the component is keyed by video): startup is measured once.
  const [health] = useState(() => new PlaybackHealth());
  const progress = useWatchProgress(
    mediaRef,
    video._id,
    initial,
    (saved) => onSaved(video._id, saved),
    health,
  );
  // The roll number names the student: the captions choice is theirs, not the browser's.
  const captions = useCaptions(video._id, watermark);
  const sessionCode = usePlaybackSession(video._id);
  const markers = useLearningMarkers(video._id);
  const checkpoints = usePlayerCheckpoints(mediaRef, video._id, courseId, progress.settled);
  return (
    <div className={classes.watch}>
      <VideoPlayer
        src={video.url}
        watermark={watermark}
        title={video.title}
        durationHint={length}
        startAt={startAt ?? resumePosition(initial, length)}
        autoPlay={autoPlay}
        mediaRef={mediaRef}
        captions={captions}
        sessionCode={sessionCode}
        onPlaybackError={(code) => health.fail(code)}
        markers={markers}
        overlay={checkpoints.overlay}
        holdAt={checkpoints.holdAt}
      />
      <Suspense fallback={null}>
        {captions.tracks.length > 0 && (
          <Transcript
            captions={captions}
            mediaRef={mediaRef}
            focus={hitAt === undefined ? undefined : { at: hitAt, playFrom: startAt ?? hitAt }}
          />
        )}
      </Suspense>
      <Suspense fallback={null}>
        <LearningPanel videoId={video._id} mediaRef={mediaRef} />
      </Suspense>
    </div>
  );
}
