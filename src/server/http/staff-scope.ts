import { checkpointMessages } from '../../contract/checkpoints';
import { instructorMessages } from '../../contract/instructors';
import { learningMessages } from '../../contract/learning';
import { liveMessages } from '../../contract/live';
import { adminMessages } from '../../contract/messages';
import type { RouteScope, ScopeKind } from '../../contract/route-kit';
import { forbidden, notFound } from '../errors';
import type { Authenticated } from './session';

/**
 * The one course-scope rule of staff routes whose `instructor` right is 'courses' (route table):
 * an admin reaches every course; an instructor only the courses an admin assigned them
 * (instructor_courses, read with the session). The ids a route names are checked once, before its
 * handler, by its `scope` (`requireScope`, called by route-table.ts); a list keeps their courses'
 * rows (`withinScope`, `courseScope` in the handler).
 */

/** Whom a resource belongs to: its course (null: none yet) and, for a video, who uploaded it. */
export interface Owner {
  courseId: string | null;
  createdBy?: string | null;
}

/**
 * Reads the owner of the resource an id names, per kind (undefined: it names nothing). Declared
 * here for the route table, implemented by videos/owners.ts.
 */
export type OwnerLookup = Record<ScopeKind, (id: string) => Promise<Owner | undefined>>;

/** The answer to an id that names nothing, per kind. */
const NOT_FOUND: Record<ScopeKind, string> = {
  video: adminMessages.videoNotFound,
  upload: adminMessages.uploadNotFound,
  course: adminMessages.courseNotFound,
  question: learningMessages.questionNotFound,
  checkpoint: checkpointMessages.checkpointNotFound,
  'live-class': liveMessages.notFound,
};

/**
 * The one instructor rule for a resource, staff routes and watching alike (videos/access.ts):
 * it is in a course they teach, or it is a video in no course yet that they uploaded (between its
 * finalize and its details).
 */
export function instructorReaches(
  instructor: { id: string; teaches: readonly string[] },
  owner: Owner,
): boolean {
  return owner.courseId === null
    ? owner.createdBy === instructor.id
    : instructor.teaches.includes(owner.courseId);
}

/** The courses a staff session may reach: null for every course (an admin). */
export function courseScope(session: Pick<Authenticated, 'user' | 'teaches'>): readonly string[] | null {
  return session.user.role === 'instructor' ? (session.teaches ?? []) : null;
}

/** Whether the session may reach what `owner` owns. */
function mayReach(session: Authenticated, owner: Owner): boolean {
  const teaches = courseScope(session);
  return teaches === null || instructorReaches({ id: session.user.id, teaches }, owner);
}

/**
 * Checks the ids a route's scope names in its parsed input: each must name something (404, every
 * staff role) the session may reach (403 for another course's, `instructorMessages.otherCourse`).
 * A field left out names nothing; a course field sent as null ("no course") is the admins'.
 */
export async function requireScope(
  owners: OwnerLookup,
  session: Authenticated,
  scope: RouteScope,
  input: Record<string, unknown>,
): Promise<void> {
  for (const [field, kind] of Object.entries(scope)) {
    const value = input[field];
    if (value === undefined) continue;
    const owner =
      value === null && kind === 'course'
        ? { courseId: null }
        : typeof value === 'string'
          ? await owners[kind](value)
          : undefined;
    if (!owner) throw notFound(NOT_FOUND[kind]);
    if (!mayReach(session, owner)) throw forbidden(instructorMessages.otherCourse);
  }
}

/** Keeps the rows of the courses the session may reach. */
export function withinScope<T>(session: Authenticated, rows: T[], courseOf: (row: T) => string | null): T[] {
  const scope = courseScope(session);
  if (scope === null) return rows;
  return rows.filter((row) => {
    const courseId = courseOf(row);
    return courseId !== null && scope.includes(courseId);
  });
}
