import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import {
  SEARCH_SOURCES,
  type ScreenTextResponse,
  type SearchSource,
  type SourceIndexState,
  type VideoIndexResponse,
} from '../../contract/search';
import { readWebVtt } from '../../contract/webvtt';
import type { Db } from '../db/client';
import { searchEntries, searchIndexState, videoCaptions, type SearchIndexStatus } from '../db/schema';

export interface IndexEntry {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

/** Longest text one entry keeps (a screen full of code is a few KB). */
const MAX_ENTRY_CHARS = 8_000;
const INSERT_BATCH = 500;

const clean = (text: string) => text.replaceAll(String.fromCharCode(0), '').slice(0, MAX_ENTRY_CHARS);

/** Adds entries of one source of a video (in batches); answers how many rows it wrote. */
export async function addEntries(
  db: Db,
  videoId: string,
  source: SearchSource,
  entries: readonly IndexEntry[],
  language = '',
): Promise<number> {
  const rows = entries
    .map((e) => ({ ...e, text: clean(e.text) }))
    .filter((e) => e.text.trim().length > 0)
    .map((e) => ({ videoId, source, language, ...e }));
  for (let i = 0; i < rows.length; i += INSERT_BATCH)
    await db.insert(searchEntries).values(rows.slice(i, i + INSERT_BATCH));
  return rows.length;
}

/** Deletes the entries of one source of a video; with `also`, only those that match it too. */
export async function deleteEntries(
  db: Db,
  videoId: string,
  source: SearchSource,
  also?: SQL,
): Promise<void> {
  await db
    .delete(searchEntries)
    .where(and(eq(searchEntries.videoId, videoId), eq(searchEntries.source, source), also));
}

/** Sets a source's state, creating its row. */
export async function setIndexState(
  db: Db,
  videoId: string,
  source: SearchSource,
  state: { status: SearchIndexStatus; progress?: number; doneSeconds?: number; error?: string | null },
  now: Date,
): Promise<void> {
  const set = {
    status: state.status,
    ...(state.progress !== undefined ? { progress: state.progress } : {}),
    ...(state.doneSeconds !== undefined ? { doneSeconds: state.doneSeconds } : {}),
    error: state.error ?? null,
    updatedAt: now,
  };
  await db
    .insert(searchIndexState)
    .values({ videoId, source, ...set })
    .onConflictDoUpdate({ target: [searchIndexState.videoId, searchIndexState.source], set });
}

export async function indexStateOf(db: Db, videoId: string, source: SearchSource) {
  const [row] = await db
    .select()
    .from(searchIndexState)
    .where(and(eq(searchIndexState.videoId, videoId), eq(searchIndexState.source, source)))
    .limit(1);
  return row;
}

/**
 * Re-indexes the caption cues of one track (or removes them when the track is gone), in one
 * transaction: a search never sees the track half indexed. Called when a track is saved or deleted.
 * Answers the cues indexed.
 */
export async function indexCaptionTrack(
  db: Db,
  videoId: string,
  language: string,
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    await deleteEntries(tx, videoId, 'captions', eq(searchEntries.language, language));
    const [track] = await tx
      .select({ vtt: videoCaptions.vtt })
      .from(videoCaptions)
      .where(and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.language, language)))
      .limit(1);
    const cues = track ? (readWebVtt(track.vtt) ?? []) : [];
    const written = await addEntries(
      tx,
      videoId,
      'captions',
      cues.map((c) => ({ startSeconds: c.start, endSeconds: c.end, text: c.plain })),
      language,
    );
    await setIndexState(tx, videoId, 'captions', { status: 'done', progress: 1 }, now);
    return written;
  });
}

/** Re-indexes every caption track of a video (the CLI, a video packaged before search): tracks and cues indexed. */
export async function indexAllCaptions(
  db: Db,
  videoId: string,
  now: Date,
): Promise<{ tracks: number; entries: number }> {
  const tracks = await db
    .select({ language: videoCaptions.language })
    .from(videoCaptions)
    .where(eq(videoCaptions.videoId, videoId));
  // Entries of tracks deleted meanwhile go too.
  await deleteEntries(db, videoId, 'captions');
  let entries = 0;
  for (const { language } of tracks) entries += await indexCaptionTrack(db, videoId, language, now);
  if (!tracks.length) await setIndexState(db, videoId, 'captions', { status: 'done', progress: 1 }, now);
  return { tracks: tracks.length, entries };
}

/** The state of each source of a video's index, for the admin. */
export async function videoIndexState(db: Db, videoId: string): Promise<VideoIndexResponse> {
  const states = await db
    .select()
    .from(searchIndexState)
    .where(eq(searchIndexState.videoId, videoId))
    .orderBy(asc(searchIndexState.source));
  const counts = await db
    .select({ source: searchEntries.source, n: count() })
    .from(searchEntries)
    .where(eq(searchEntries.videoId, videoId))
    .groupBy(searchEntries.source);
  const sources: SourceIndexState[] = SEARCH_SOURCES.map((source) => {
    const row = states.find((s) => s.source === source);
    return {
      source,
      status: row?.status ?? 'off',
      progress: row?.progress ?? 0,
      entries: Number(counts.find((c) => c.source === source)?.n ?? 0),
      error: row?.error ?? null,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  });
  return { videoId, sources };
}

/**
 * The screen text in force at `t` (the last reading at or before it), '' when none, and `until`:
 * the moment this answer stops holding (the reading's end, or when nothing is on screen the start
 * of the next reading; null when none follows), so the player asks again only then.
 */
export async function screenTextAt(db: Db, videoId: string, t: number): Promise<ScreenTextResponse> {
  const screenOf = and(eq(searchEntries.videoId, videoId), eq(searchEntries.source, 'screen'));
  const [row] = await db
    .select({ t: searchEntries.startSeconds, until: searchEntries.endSeconds, text: searchEntries.text })
    .from(searchEntries)
    .where(and(screenOf, sql`${searchEntries.startSeconds} <= ${t}`, sql`${searchEntries.endSeconds} > ${t}`))
    .orderBy(sql`${searchEntries.startSeconds} desc`)
    .limit(1);
  if (row) return row;
  const [next] = await db
    .select({ start: searchEntries.startSeconds })
    .from(searchEntries)
    .where(and(screenOf, sql`${searchEntries.startSeconds} > ${t}`))
    .orderBy(asc(searchEntries.startSeconds))
    .limit(1);
  return { t, until: next?.start ?? null, text: '' };
}
