import { playerLog } from './player-log';

/**
 * Holds back `mediaSource.endOfStream()` while `media` is seeking, and calls it once the seek is
 * done (`seeked`), the SourceBuffers idle and the MediaSource still open.
 *
 * Why: hls.js ends the stream as soon as the last segment is buffered at the playhead, and that is
 * often a moment after a seek begins: at the start of a lecture shorter than the forward buffer,
 * hls.js has every segment appended while the playhead waits at 0 before the buffer's first frame
 * (0.08 s: the encoder's B-frame delay), seeks over that gap, and the seek puts the playhead in a
 * buffer that runs to the end; or a student jumps into the last 30 s. WebKitGTK's Media Source
 * Extensions (its GStreamer backend, as in GNOME Web and WPE; Safari's own media stack is another)
 * can lose a seek when the stream ends while it is pending: `seeking` stays true and readyState HAVE_METADATA forever, the `seeked` never comes,
 * and the player spins. Ending the stream after the seek costs nothing elsewhere: the end only
 * matters once the playhead gets there. Only a seek into buffered media with a second or more after
 * it is waited for (one at the very end may need the end to complete), and at most HOLD_AT_MOST_MS.
 */
export function endStreamAfterSeeks(mediaSource: MediaSource, media: HTMLMediaElement): () => void {
  const end = mediaSource.endOfStream.bind(mediaSource);
  let waiting: (() => void) | undefined;
  const cancel = () => {
    waiting?.();
    waiting = undefined;
  };
  const idle = () => !Array.from(mediaSource.sourceBuffers).some((buffer) => buffer.updating);
  const endNow = (why: string) => {
    cancel();
    if (mediaSource.readyState !== 'open') return; // already ended, or detached meanwhile
    try {
      end();
      playerLog(`endOfStream ${why}`);
    } catch (err) {
      playerLog(`endOfStream ${why} failed: ${String(err)}`); // hls.js ends it again on its next EOS
    }
  };
  const endWhenSettled = () => {
    if (mediaSource.readyState !== 'open') return cancel();
    if (media.seeking || !idle()) return; // the next seeked or updateend comes back here
    endNow('after the seek');
  };
  mediaSource.endOfStream = (error?: EndOfStreamError) => {
    cancel();
    // An error ends the stream at once: nothing will play on. So does a seek that may need the
    // end to complete (near the end, where no engine can fill HAVE_FUTURE_DATA before it).
    if (error || !media.seeking || bufferedAhead(media) < SEEK_SETTLES_AHEAD_S) {
      end(error);
      return;
    }
    playerLog(`endOfStream held back: seeking to ${media.currentTime.toFixed(3)}`);
    const buffers = Array.from(mediaSource.sourceBuffers);
    const timer = setTimeout(() => endNow(`after ${HOLD_AT_MOST_MS} ms of seeking`), HOLD_AT_MOST_MS);
    media.addEventListener('seeked', endWhenSettled);
    for (const buffer of buffers) buffer.addEventListener('updateend', endWhenSettled);
    waiting = () => {
      clearTimeout(timer);
      media.removeEventListener('seeked', endWhenSettled);
      for (const buffer of buffers) buffer.removeEventListener('updateend', endWhenSettled);
    };
  };
  return () => {
    cancel();
    delete (mediaSource as Partial<Pick<MediaSource, 'endOfStream'>>).endOfStream;
  };
}

/** Only a seek with this much media buffered after its target is sure to finish before the end. */
const SEEK_SETTLES_AHEAD_S = 1;
/** A held-back end goes anyway after this long, so nothing can wait on it forever. */
const HOLD_AT_MOST_MS = 4_000;

/** Seconds buffered from the playhead (the seek's target while seeking) on. */
function bufferedAhead(media: HTMLMediaElement): number {
  const t = media.currentTime;
  for (let i = 0; i < media.buffered.length; i++)
    if (media.buffered.start(i) <= t && t < media.buffered.end(i)) return media.buffered.end(i) - t;
  return 0;
}
