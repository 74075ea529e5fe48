import { UnstyledButton } from '@mantine/core';
import classes from './Player.module.css';

/**
 * Over a live stream's picture, top right: LIVE (dimmed while the viewer is behind the edge) and,
 * when they are more than ~10 s behind, "Back to live", which seeks to the edge.
 */
export function LiveBadge({ behind, onBackToLive }: { behind: boolean; onBackToLive(): void }) {
  return (
    <div className={classes.live}>
      <span className={classes.liveBadge} data-behind={behind || undefined} role="status">
        <span aria-hidden="true" className={classes.liveDot} />
        LIVE
      </span>
      {behind && (
        <UnstyledButton className={classes.backToLive} onClick={onBackToLive}>
          Back to live
        </UnstyledButton>
      )}
    </div>
  );
}
