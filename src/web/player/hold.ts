/**
 * The server holds a lecture at a checkpoint (checkpoints/hold.ts): it refuses the keys of every
 * period from the first required checkpoint the student has not passed, with 403. The player meets
 * that as a key refused (hls.js) or a media error (the browser's own HLS); either way the student
 * goes back to the checkpoint's moment, where its question waits, rather than to an error.
 */

/**
 * Fatal errors taken for the hold (the stream attached again at its moment) before one is shown: a
 * real failure while the lecture is held still ends in the error screen.
 */
export const HOLD_REATTACHES = 3;

/** Whether `video` has media at its current position (the engine stopped loading just after it). */
function bufferedAtPosition(video: Pick<HTMLVideoElement, 'buffered' | 'currentTime'>): boolean {
  const { buffered, currentTime } = video;
  for (let i = 0; i < buffered.length; i++)
    if (buffered.start(i) <= currentTime + 0.1 && currentTime < buffered.end(i)) return true;
  return false;
}

/**
 * Where a key refused at the hold sends the picture: back to `holdAt` when it is at or past it, or
 * when it has nothing to show where it is (a start or seek past the hold, whose media can never
 * come). A refusal while playing well before it (the buffer reaching ahead) leaves playback alone
 * (null): it stops at the checkpoint.
 */
export function holdResumePoint(
  video: Pick<HTMLVideoElement, 'buffered' | 'currentTime'>,
  holdAt: number | null | undefined,
): number | null {
  if (holdAt === null || holdAt === undefined) return null;
  const past = video.currentTime > holdAt + 0.05;
  if (!past && bufferedAtPosition(video)) return null;
  return holdAt;
}
