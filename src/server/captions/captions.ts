import { and, asc, eq } from 'drizzle-orm';
import { captionMessages, type CaptionTrack } from '../../contract/captions';
import { mediaMessages } from '../../contract/media';
import { parseCaptions, toWebVtt } from '../../contract/webvtt';
import type { Db } from '../db/client';
import { oneById } from '../db/ids';
import { videoCaptions, videos } from '../db/schema';
import { badRequest, notFound } from '../errors';

type Row = typeof videoCaptions.$inferSelect;

const present = (row: Pick<Row, 'language' | 'label' | 'cueCount' | 'updatedAt'>): CaptionTrack => ({
  language: row.language,
  label: row.label,
  cues: row.cueCount,
  updatedAt: row.updatedAt.toISOString(),
});

const columns = {
  language: videoCaptions.language,
  label: videoCaptions.label,
  cueCount: videoCaptions.cueCount,
  updatedAt: videoCaptions.updatedAt,
};

/** The video's length in seconds, or a 404. */
export async function videoDuration(db: Db, videoId: string): Promise<number> {
  const video = await oneById(videoId, mediaMessages.videoNotFound, () =>
    db
      .select({ durationSeconds: videos.durationSeconds })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1),
  );
  return video.durationSeconds;
}

/** The caption tracks of a video, by language; a 404 for an unknown video. */
export async function listCaptions(db: Db, videoId: string): Promise<CaptionTrack[]> {
  await videoDuration(db, videoId);
  const rows = await db
    .select(columns)
    .from(videoCaptions)
    .where(eq(videoCaptions.videoId, videoId))
    .orderBy(asc(videoCaptions.label), asc(videoCaptions.language));
  return rows.map(present);
}

/**
 * Checks an uploaded .srt or .vtt against the video's length and stores it as WebVTT, replacing the
 * language's previous file. A bad file is a 400 naming its first bad line.
 */
export async function saveCaptions(
  db: Db,
  videoId: string,
  fields: { language: string; label: string },
  text: string,
  now: Date,
): Promise<CaptionTrack> {
  const duration = await videoDuration(db, videoId);
  const parsed = parseCaptions(text, duration);
  if (!parsed.ok) throw badRequest(parsed.message, { line: parsed.line });
  const row = {
    label: fields.label,
    vtt: toWebVtt(parsed.cues),
    cueCount: parsed.cues.length,
    updatedAt: now,
  };
  const [saved] = await db
    .insert(videoCaptions)
    .values({ videoId, language: fields.language, ...row })
    .onConflictDoUpdate({ target: [videoCaptions.videoId, videoCaptions.language], set: row })
    .returning(columns);
  return present(saved!);
}

export async function deleteCaptions(db: Db, videoId: string, language: string): Promise<void> {
  const gone = await db
    .delete(videoCaptions)
    .where(and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.language, language)))
    .returning({ language: videoCaptions.language });
  if (!gone.length) throw notFound(captionMessages.notFound);
}

/** The stored WebVTT of one language, or a 404. */
export async function captionFile(db: Db, videoId: string, language: string): Promise<string> {
  const [row] = await db
    .select({ vtt: videoCaptions.vtt })
    .from(videoCaptions)
    .where(and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.language, language)))
    .limit(1);
  if (!row) throw notFound(captionMessages.notFound);
  return row.vtt;
}
