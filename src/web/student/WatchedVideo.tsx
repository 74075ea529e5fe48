import { useRef } from 'react';
import type { StudentVideo } from '../../contract/media';
import { NO_PROGRESS, type VideoProgress } from '../../contract/progress';
import { parseDuration } from '../player/format';
import { VideoPlayer } from '../player/VideoPlayer';
import { resumePosition, useWatchProgress } from './use-watch-progress';

export interface WatchedVideoProps {
  video: StudentVideo;
  watermark: string;
  autoPlay: boolean;
  onSaved(videoId: string, progress: VideoProgress): void;
}

/** The player for one video, resuming where the student left off and saving progress as they watch. */
export function WatchedVideo({ video, watermark, autoPlay, onSaved }: WatchedVideoProps) {
  const mediaRef = useRef<HTMLVideoElement | null>(null);
  const initial = video.progress ?? NO_PROGRESS;
  const length = parseDuration(video.duration);
  useWatchProgress(mediaRef, video._id, initial, (progress) => onSaved(video._id, progress));
  return (
    <VideoPlayer
      src={video.url}
      watermark={watermark}
      title={video.title}
      durationHint={length}
      startAt={resumePosition(initial, length)}
      autoPlay={autoPlay}
      mediaRef={mediaRef}
    />
  );
}
