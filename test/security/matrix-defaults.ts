import type { AuthLevel } from '../../src/contract/route-kit';
import { splitRouteKey } from '../../src/contract/route-kit';
import { routes, type RouteKey } from '../../src/contract/routes';
import { UNKNOWN } from '../support/course-fixtures';
import type { Call } from './matrix-kit';
import { instructorRight } from './instructor-rights';
import { INSTRUCTOR_ROLES, ROLES, type Role } from './world';

/** The roles each guarded auth level lets past its guard (anonymous is always 401). */
const ADMITTED: Record<Exclude<AuthLevel, 'public' | 'token'>, readonly Role[]> = {
  student: ['student', 'otherCourse', 'revoked'],
  'student-reset': ['student', 'firstLogin', 'otherCourse', 'revoked'],
  admin: ['admin'],
  'admin-signin': ['admin'],
  viewer: ['student', 'otherCourse', 'revoked', 'admin'],
};

/** What the table's auth level promises for one role: a status, or "past the guard" (anything but 401/403). */
export type Promised = 401 | 403 | 'past the guard';

export interface DefaultCase {
  route: RouteKey;
  call: Call;
  /** Per role; a role left out is not sent (its request could change what later rows rely on). */
  expect: Partial<Record<Role, Promised>>;
}

/** Parameters that name nothing: a request past the guard then ends in a 404 or a 400, changing nothing. */
const NOTHING: Record<string, string> = {
  id: UNKNOWN,
  studentId: UNKNOWN,
  rendition: 'v180',
  file: 'index.m3u8',
};

/**
 * One request per route of the table, with the answer its auth level promises each role: signed out
 * 401, a role the level does not admit 403, an admitted role past the guard. Token routes refuse
 * everyone without a token (403). A request past the guard is sent only where it cannot change
 * anything: a GET, a body the schema refuses (`{}`: validation comes before any work), or a path
 * parameter that names nothing.
 */
export function defaultCases(): DefaultCase[] {
  return (Object.keys(routes) as RouteKey[]).flatMap((route): DefaultCase[] => {
    const entry = routes[route];
    if (entry.auth === 'public') return [];
    const { method, path } = splitRouteKey(route);
    const call: Call = {
      method,
      path: path.replace(/:(\w+)/g, (_, name: string) => NOTHING[name] ?? 'x'),
      ...('body' in entry ? { json: {} } : {}),
    };
    if (entry.auth === 'token') {
      return [{ route, call, expect: Object.fromEntries(ROLES.map((role) => [role, 403])) }];
    }
    // Instructors pass a staff route's guard where its instructor right is not 'none', and every viewer route's.
    const instructorsIn =
      entry.auth === 'viewer' ||
      ((entry.auth === 'admin' || entry.auth === 'admin-signin') && instructorRight(route) !== 'none');
    const admitted: readonly Role[] = [...ADMITTED[entry.auth], ...(instructorsIn ? INSTRUCTOR_ROLES : [])];
    const harmless = method === 'GET' || 'body' in entry || 'params' in entry || 'headers' in entry;
    const expect: DefaultCase['expect'] = {};
    for (const role of ROLES) {
      if (role === 'anonymous') expect[role] = 401;
      else if (!admitted.includes(role)) expect[role] = 403;
      else if (harmless) expect[role] = 'past the guard';
    }
    return [{ route, call, expect }];
  });
}

/** Whether `status` keeps the promise. */
export function keeps(promised: Promised, status: number): boolean {
  return promised === 'past the guard' ? status !== 401 && status !== 403 : status === promised;
}
