import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { AccessState } from '../../contract/access-policy';
import { enrollments } from '../db/schema';

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
