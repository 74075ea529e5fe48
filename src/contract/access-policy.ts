/**
 * The one course-access rule (SPEC.md section 4), for the server's decisions and the web's screens
 * alike: access is active while not revoked and the expiry is not before now. Zod-free and pure, so
 * the student chunks can carry it.
 */
import { schoolDay } from './school-time';
import { plural } from './plural';

export type AccessState = 'active' | 'expires-today' | 'expired' | 'revoked' | 'not-enrolled';

/** What the rule reads of an enrollment (a row, or the API's fields after `enrollmentOf`). */
export interface EnrollmentFacts {
  accessRevoked: boolean;
  /** A Date, an ISO timestamp or epoch milliseconds. */
  accessExpiration: Date | string | number;
}

export interface AccessVerdict {
  state: AccessState;
  /** The student may open the course and watch what they were granted. */
  canWatch: boolean;
  /**
   * Days of the school's calendar from today to the expiry day: 0 on the last day, negative once
   * expired; null when not enrolled.
   */
  daysLeft: number | null;
}

const millis = (value: Date | string | number) =>
  value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);

/**
 * The state of one enrollment at `now`, "today" being the school's day in `timeZone` (OPEN_TZ).
 * Revoked wins over everything; an expiry equal to now is still active.
 */
export function courseAccess(
  enrollment: EnrollmentFacts | null | undefined,
  now: Date | number,
  timeZone: string,
): AccessVerdict {
  if (!enrollment) return { state: 'not-enrolled', canWatch: false, daysLeft: null };
  const at = millis(now);
  const expires = millis(enrollment.accessExpiration);
  const daysLeft = schoolDay(expires, timeZone) - schoolDay(at, timeZone);
  if (enrollment.accessRevoked) return { state: 'revoked', canWatch: false, daysLeft };
  if (!(expires >= at)) return { state: 'expired', canWatch: false, daysLeft };
  return { state: daysLeft === 0 ? 'expires-today' : 'active', canWatch: true, daysLeft };
}

export type WatchVerdict = 'allowed' | 'no-course-access' | 'no-video-access';

/** A student's right to one video: active access to its course, and a grant of the video. */
export function videoAccess(
  enrollment: EnrollmentFacts | null | undefined,
  granted: boolean,
  now: Date | number,
  timeZone: string,
): WatchVerdict {
  if (!courseAccess(enrollment, now, timeZone).canWatch) return 'no-course-access';
  return granted ? 'allowed' : 'no-video-access';
}

/** The API's three-valued `access` field (SPEC.md section 4): a course open today is active. */
export type CourseAccessState = 'active' | 'expired' | 'revoked';
export function apiAccessState(verdict: AccessVerdict): CourseAccessState {
  if (verdict.state === 'revoked') return 'revoked';
  return verdict.canWatch ? 'active' : 'expired';
}

/** The API's lower-case fields as the rule reads them. */
export function enrollmentOf(row: { accessrevoked: boolean; accessexpiration: string }): EnrollmentFacts {
  return { accessRevoked: row.accessrevoked, accessExpiration: row.accessexpiration };
}

/** /editcourse's Status column (SPEC.md section 2: Active or Revoked). */
export function statusLabel(verdict: AccessVerdict): 'Active' | 'Revoked' {
  return verdict.state === 'revoked' ? 'Revoked' : 'Active';
}

/** The expiry's distance as the admin screens say it: "expired", "today" or "in N days". */
export function expiryLabel(verdict: AccessVerdict): string {
  if (verdict.state === 'expired' || verdict.daysLeft === null || verdict.daysLeft < 0) return 'expired';
  if (verdict.daysLeft === 0) return 'today';
  return `in ${plural(verdict.daysLeft, 'day')}`;
}
