import { and, eq, gte, sql, type Column, type SQL } from 'drizzle-orm';
import type { AccessState } from '../../contract/access-policy';
import { enrollments, videoAccess, videos } from '../db/schema';

/**
 * The access rule (src/contract/access-policy.ts) in SQL, for queries that filter lists in the
 * database. courses/access-boundaries.int.test.ts proves both equal to the rule on every boundary.
 */

/** Enrollments whose course may be opened at `now`: not revoked, expiry not before now. */
export function activeEnrollment(now: Date): SQL {
  return and(eq(enrollments.accessRevoked, false), gte(enrollments.accessExpiration, now))!;
}

/** The rule's state of the joined enrollment row at `now` ('not-enrolled' where the join found none). */
export function enrollmentState(now: Date, timeZone: string): SQL<AccessState> {
  const at = now.toISOString();
  const day = (instant: unknown) => sql`(${instant} at time zone ${timeZone})::date`;
  return sql<AccessState>`case
    when ${enrollments.id} is null then 'not-enrolled'
    when ${enrollments.accessRevoked} then 'revoked'
    when ${enrollments.accessExpiration} < ${at}::timestamptz then 'expired'
    when ${day(enrollments.accessExpiration)} = ${day(sql`${at}::timestamptz`)} then 'expires-today'
    else 'active' end`;
}

/**
 * Whether `student` (a column of the query) may watch the query's `videos` row at `now`: a grant of
 * the video and an active enrollment in its course, the rule of videos/access.ts's checkWatch.
 */
export function watchesVideo(student: Column, now: Date): SQL {
  return sql`exists (select 1 from ${videoAccess} where ${videoAccess.videoId} = ${videos.id} and ${videoAccess.studentId} = ${student})
    and exists (select 1 from ${enrollments} where ${enrollments.courseId} = ${videos.courseId} and ${enrollments.studentId} = ${student} and ${activeEnrollment(now)})`;
}
