import { AT_RISK_IDLE_DAYS } from '../../contract/analytics';
import { sql, type SQL } from 'drizzle-orm';

/**
 * "At risk": course access active, and fewer than half of the course's (ready) videos started or
 * no progress saved for AT_RISK_IDLE_DAYS (never counts as idle).
 */
export function isAtRisk(
  student: { active: boolean; videosStarted: number; lastActivity: Date | null },
  videoCount: number,
  now: Date,
): boolean {
  if (!student.active) return false;
  const idleSince = now.getTime() - AT_RISK_IDLE_DAYS * 86_400_000;
  return (
    student.videosStarted * 2 < videoCount ||
    student.lastActivity === null ||
    student.lastActivity.getTime() < idleSince
  );
}

/** The same rule in SQL, over columns `active`, `started` and `last_activity`. */
export function atRiskSql(videoCount: number, now: Date): SQL {
  const idleSince = new Date(now.getTime() - AT_RISK_IDLE_DAYS * 86_400_000).toISOString();
  return sql`(active and (started * 2 < ${videoCount} or last_activity is null or last_activity < ${idleSince}::timestamptz))`;
}
