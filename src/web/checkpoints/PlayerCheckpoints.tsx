import type { RefObject } from 'react';
import { useCheckpointAttempt, useVideoCheckpoints } from '../api/checkpoints';
import { CheckpointDialog } from './CheckpointDialog';
import { useCheckpointStops } from './use-checkpoint-stops';

/**
 * The lecture's checkpoints in the player: where it stops, and the question it asks there. Returns
 * the overlay for VideoPlayer (null while no question is open), the seek bar's marks and the
 * moment the lecture is held at (undefined while the list is on its way). An answer waits for `beforeAnswer` (the progress saves on their
 * way: the one the player made on stopping here carries the rewatch a wrong answer asked for).
 */
export function usePlayerCheckpoints(
  mediaRef: RefObject<HTMLVideoElement | null>,
  videoId: string,
  courseId?: string,
  beforeAnswer?: () => Promise<void>,
) {
  const list = useVideoCheckpoints(videoId);
  const stops = useCheckpointStops(mediaRef, list.data);
  const attempt = useCheckpointAttempt(videoId, courseId);
  const active = stops.active;
  const overlay = active ? (
    <CheckpointDialog
      key={active._id}
      checkpoint={active}
      submit={async (answer) => {
        await beforeAnswer?.();
        return attempt.mutateAsync({ checkpointId: active._id, answer });
      }}
      onDone={() => stops.done()}
      onRewind={(to) => stops.rewind(to)}
    />
  ) : null;
  // Where the server holds the lecture (checkpoints/hold.ts): the first required one not passed;
  // undefined until the list is known.
  const holdAt = list.isPending
    ? undefined
    : (list.data ?? [])
        .filter((c) => c.required && !c.passed)
        .reduce<number | null>((min, c) => (min === null || c.t < min ? c.t : min), null);
  return { overlay, checkpoints: list.data ?? [], holdAt };
}
