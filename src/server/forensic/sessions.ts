import { randomBytes } from 'node:crypto';
import { and, desc, eq, gte, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { playbackSessions, videos } from '../db/schema';
import { startPlaybackSession } from '../playback/sessions';
import { videoCourseOf } from '../playback/video-course';
import { videoSecret } from '../videos/video-secrets';

/** The video's forensic secret, made on first use (racing writers agree: the first one wins). */
export async function forensicSecretOf(db: Db, videoId: string): Promise<Buffer | undefined> {
  await db
    .update(videos)
    .set({ forensicSecret: randomBytes(32).toString('hex') })
    .where(and(eq(videos.id, videoId), isNull(videos.forensicSecret)));
  return videoSecret(db, videoId, 'forensicSecret');
}

/**
 * The playback session whose A/B sequence a marked child playlist follows: the viewer's latest
 * session of this video within `withinMs` (the one the player opened with POST /api/playback and
 * draws on the canvas), or a new one for a client that skipped that call (a downloader).
 */
export async function sessionCodeFor(
  db: Db,
  at: { userId: string; videoId: string; ip: string; userAgent: string; now: Date; withinMs: number },
): Promise<string> {
  const [latest] = await db
    .select({ code: playbackSessions.code })
    .from(playbackSessions)
    .where(
      and(
        eq(playbackSessions.userId, at.userId),
        eq(playbackSessions.videoId, at.videoId),
        gte(playbackSessions.startedAt, new Date(at.now.getTime() - at.withinMs)),
      ),
    )
    .orderBy(desc(playbackSessions.startedAt))
    .limit(1);
  if (latest) return latest.code;
  return startPlaybackSession(db, { ...at, courseId: await videoCourseOf(db, at.videoId) });
}
