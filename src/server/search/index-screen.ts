import { rm } from 'node:fs/promises';
import { and, eq, gte, sql } from 'drizzle-orm';
import { searchEntries } from '../db/schema';
import { oneLine } from '../jobs/run-progress';
import { RetryLaterError } from '../jobs/types';
import { addEntries, deleteEntries, setIndexState } from './index-store';
import { checkTesseract, extractFrames, hashFile, readImage } from './ocr';
import { dueSource, type SourceIndexer } from './source-input';

/** Screen text is read in pieces of this many seconds; each piece is saved with the place to resume. */
export const CHUNK_SECONDS = 60;

/** Within a piece, the admin's percentage moves with the frames read, written at most this often. */
const PROGRESS_EVERY_MS = 2_000;

interface OpenEntry {
  id?: string;
  start: number;
  text: string;
}

/** Text on screen, resumable piece by piece. */
export const indexScreen: SourceIndexer = async (ctx, deps, video, input, force, run) => {
  const { config, db } = ctx;
  const videoId = video.id;
  const due = await dueSource(ctx, videoId, 'screen', config.searchOcr ? undefined : 'SEARCH_OCR=off', force);
  if (!due) return undefined;
  const { state } = due;
  try {
    await checkTesseract(config.tesseractPath, config.ocrLangs, run.signal);
  } catch (error) {
    // Not the video's fault: the job waits (growing backoff, no attempt used) until Tesseract is there.
    await setIndexState(db, videoId, 'screen', { status: 'queued', error: oneLine(error) }, ctx.clock.now());
    throw new RetryLaterError(oneLine(error));
  }
  let from = force ? 0 : (state?.doneSeconds ?? 0);
  const duration = Math.max(video.durationSeconds, 0.1);
  const markDone = () =>
    setIndexState(
      db,
      videoId,
      'screen',
      { status: 'done', progress: 1, doneSeconds: duration },
      ctx.clock.now(),
    );
  // What a run that died left after its last saved piece goes; the entry still open then is continued.
  await deleteEntries(db, videoId, 'screen', force ? undefined : gte(searchEntries.startSeconds, from));
  let open: OpenEntry | undefined;
  if (from > 0) {
    const [last] = await db
      .select({ id: searchEntries.id, start: searchEntries.startSeconds, text: searchEntries.text })
      .from(searchEntries)
      .where(and(eq(searchEntries.videoId, videoId), eq(searchEntries.source, 'screen')))
      .orderBy(sql`${searchEntries.startSeconds} desc`)
      .limit(1);
    open = last;
  }
  await setIndexState(
    db,
    videoId,
    'screen',
    { status: 'running', progress: Math.min(1, from / duration), doneSeconds: from },
    ctx.clock.now(),
  );
  if (from >= duration) {
    await markDone();
    return 0;
  }
  const source = await input();
  const framesDir = ctx.media.scratch.path(`${videoId}.search-frames`);
  let lastHash = '';
  let lastText = open?.text;
  let written = 0;
  let progressAt = Date.now();
  try {
    while (from < duration) {
      run.signal.throwIfAborted();
      const to = Math.min(duration, from + CHUNK_SECONDS);
      const frames = await extractFrames(deps.tools, source, from, to - from, framesDir, run.signal);
      const closed: { id?: string; start: number; end: number; text: string }[] = [];
      for (const frame of frames) {
        run.signal.throwIfAborted();
        const hash = await hashFile(frame.file);
        if (hash === lastHash) continue; // the very same picture: nothing new to read
        lastHash = hash;
        const text = await readImage(config.tesseractPath, frame.file, config.ocrLangs, run.signal);
        ctx.metrics.searchFramesRead.inc();
        if (Date.now() - progressAt >= PROGRESS_EVERY_MS) {
          // The place to resume stays the piece's start: only what the admin sees moves.
          progressAt = Date.now();
          await setIndexState(
            db,
            videoId,
            'screen',
            { status: 'running', progress: Math.min(1, frame.t / duration), doneSeconds: from },
            ctx.clock.now(),
          );
        }
        if (text === lastText) continue;
        if (open) closed.push({ ...open, end: frame.t });
        open = text.trim() ? { start: frame.t, text } : undefined;
        lastText = text;
      }
      const now = ctx.clock.now();
      await db.transaction(async (tx) => {
        for (const entry of closed) {
          if (entry.id)
            await tx
              .update(searchEntries)
              .set({ endSeconds: entry.end })
              .where(eq(searchEntries.id, entry.id));
          else
            written += await addEntries(tx, videoId, 'screen', [
              { startSeconds: entry.start, endSeconds: entry.end, text: entry.text },
            ]);
        }
        if (open) {
          // Saved as far as this piece goes; the next piece extends or closes it.
          if (open.id)
            await tx.update(searchEntries).set({ endSeconds: to }).where(eq(searchEntries.id, open.id));
          else {
            const [row] = await tx
              .insert(searchEntries)
              .values({
                videoId,
                source: 'screen',
                startSeconds: open.start,
                endSeconds: to,
                text: open.text,
              })
              .returning({ id: searchEntries.id });
            open.id = row!.id;
            written++;
          }
        }
        await setIndexState(
          tx,
          videoId,
          'screen',
          { status: 'running', progress: to / duration, doneSeconds: to },
          now,
        );
      });
      from = to;
    }
  } finally {
    await rm(framesDir, { recursive: true, force: true });
  }
  await markDone();
  return written;
};
