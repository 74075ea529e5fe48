import { and, eq } from 'drizzle-orm';
import { videoAccess as videoRule } from '../../contract/access-policy';
import type { AppContext } from '../context';
import { enrollments, videoAccess, videos } from '../db/schema';

/**
 * The videos a student may watch at `now`, by the one rule the player's keys use
 * (src/contract/access-policy.ts, as videos/access.ts's checkWatch): active access to the video's
 * course and a grant of the video. Read at every search, so a revoke removes hits at once.
 */
export async function watchableVideoIds(
  ctx: Pick<AppContext, 'db' | 'config'>,
  studentId: string,
  now: Date,
): Promise<string[]> {
  const rows = await ctx.db
    .select({
      videoId: videos.id,
      accessRevoked: enrollments.accessRevoked,
      accessExpiration: enrollments.accessExpiration,
    })
    .from(videoAccess)
    .innerJoin(videos, eq(videos.id, videoAccess.videoId))
    .innerJoin(
      enrollments,
      and(eq(enrollments.courseId, videos.courseId), eq(enrollments.studentId, studentId)),
    )
    .where(eq(videoAccess.studentId, studentId));
  return rows
    .filter(
      (row) =>
        videoRule(
          { accessRevoked: row.accessRevoked, accessExpiration: row.accessExpiration },
          true,
          now,
          ctx.config.openTimeZone,
        ) === 'allowed',
    )
    .map((row) => row.videoId);
}
