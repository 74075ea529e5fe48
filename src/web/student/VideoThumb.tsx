import { useState } from 'react';
import type { StudentVideo } from '../../contract/media';
import { parseDuration } from '../player/format';
import classes from './Course.module.css';

/** A video's 16:9 thumbnail with its duration and a bar for how much was watched. */
export function VideoThumb({ video, width }: { video: StudentVideo; width?: number }) {
  const [broken, setBroken] = useState(false);
  const length = parseDuration(video.duration);
  const share = length > 0 ? Math.min(1, (video.progress?.watched ?? 0) / length) : 0;
  return (
    <div className={classes.thumb} style={width ? { width } : undefined}>
      {!broken && <img src={video.thumbnail} alt="" loading="lazy" onError={() => setBroken(true)} />}
      {/* Said once, with the title beside it: the thumbnail's copy is for the eye. */}
      <span className={classes.duration} aria-hidden="true">
        {video.duration}
      </span>
      {share > 0 && <span className={classes.watched} style={{ width: `${share * 100}%` }} />}
    </div>
  );
}
