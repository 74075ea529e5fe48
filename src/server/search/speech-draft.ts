import { and, asc, eq } from 'drizzle-orm';
import { plainTextCue, type Cue } from '../../contract/webvtt';
import type { Db } from '../db/client';
import { searchEntries } from '../db/schema';
import { deleteEntries, indexStateOf, setIndexState } from './index-store';

/**
 * The draft caption track from machine speech (docs/SEARCH.md): the `speech` entries of a video,
 * in order, as WebVTT cues. Cues are kept inside the video (an engine may run a cue past the end),
 * so the draft saves as a caption track the way an upload does.
 */
export async function speechDraft(
  db: Db,
  videoId: string,
  durationSeconds: number,
): Promise<{ cues: Cue[]; updatedAt: Date } | null> {
  const rows = await db
    .select({ start: searchEntries.startSeconds, end: searchEntries.endSeconds, text: searchEntries.text })
    .from(searchEntries)
    .where(and(eq(searchEntries.videoId, videoId), eq(searchEntries.source, 'speech')))
    .orderBy(asc(searchEntries.startSeconds), asc(searchEntries.endSeconds));
  const limit = durationSeconds > 0 ? durationSeconds : Infinity;
  const cues = rows
    .map((row) => plainTextCue(Math.max(0, row.start), Math.min(row.end, limit), row.text))
    .filter((cue) => cue.end > cue.start && cue.text !== '');
  if (!cues.length) return null;
  const state = await indexStateOf(db, videoId, 'speech');
  return { cues, updatedAt: state?.updatedAt ?? new Date(0) };
}

/**
 * Once the draft is a caption track, its cues are searched as captions: the speech entries go (no
 * hit twice) and speech is off for the video, as for any video with captions.
 */
export async function retireSpeech(db: Db, videoId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await deleteEntries(tx, videoId, 'speech');
    await setIndexState(tx, videoId, 'speech', { status: 'off', error: 'the video has captions' }, now);
  });
}

/** A language's English name for a track's label ("en" gives "English"), else the tag itself. */
export function languageName(language: string): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language);
  } catch {
    name = undefined;
  }
  return (name ?? language).slice(0, 40);
}
