import { Button, Loader, Text, UnstyledButton } from '@mantine/core';
import { IconPlayerPlayFilled } from '@tabler/icons-react';
import classes from './Player.module.css';

export interface PlayerOverlayProps {
  /** A playback error (use-recovery.ts): the message with Try again. */
  error: string | null;
  buffering: boolean;
  playing: boolean;
  ended: boolean;
  onRetry(): void;
  onPlay(): void;
}

/** What sits in the middle of the picture: the error and Try again, the spinner, or the big play button. */
export function PlayerOverlay({ error, buffering, playing, ended, onRetry, onPlay }: PlayerOverlayProps) {
  if (error)
    return (
      <div className={classes.center}>
        <div className={classes.message} role="alert">
          <Text fw={600}>{error}</Text>
          <Button mt="sm" size="xs" color="red" onClick={onRetry}>
            Try again
          </Button>
        </div>
      </div>
    );
  if (buffering)
    return (
      <div className={classes.center} role="status" aria-label="Loading video">
        <Loader color="white" size="lg" />
      </div>
    );
  if (playing) return null;
  return (
    <div className={classes.center}>
      <UnstyledButton
        className={classes.bigPlay}
        onClick={onPlay}
        aria-label={ended ? 'Replay video' : 'Play video'}
      >
        <IconPlayerPlayFilled size={34} />
      </UnstyledButton>
    </div>
  );
}
