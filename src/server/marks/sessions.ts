import { randomBytes } from 'node:crypto';
import { and, desc, eq, gte, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { playbackSessions, videos } from '../db/schema';
import { startPlaybackSession } from '../playback/sessions';
import { videoSecret, wrapForensicSecret, type SecretContext } from '../videos/video-secrets';

/** The video's forensic secret, made on first use (racing writers agree: the first one wins); stored wrapped. */
export async function forensicSecretOf(ctx: SecretContext, videoId: string): Promise<Buffer | undefined> {
  await ctx.db
    .update(videos)
    .set({ forensicSecret: wrapForensicSecret(ctx.signingKey, videoId, randomBytes(32)) })
    .where(and(eq(videos.id, videoId), isNull(videos.forensicSecret)));
  return videoSecret(ctx, videoId, 'forensicSecret');
}

/**
 * The playback session whose A/B sequence a marked child playlist follows: the viewer's latest
 * session of this video within `withinMs` (the one the player opened with POST /api/playback and
 * draws on the canvas), or a new one for a client that skipped that call (a downloader).
 */
export async function sessionCodeFor(
  db: Db,
  at: {
    userId: string;
    videoId: string;
    /** The video's course now, from the row the caller's access check read (a new session keeps it). */
    courseId: string | null;
    ip: string;
    userAgent: string;
    now: Date;
    withinMs: number;
  },
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
  return startPlaybackSession(db, at);
}
