import type { RouteKey } from '../../src/contract/routes';
import { routes } from '../../src/contract/routes';
import { instructorRight } from './instructor-rights';
import { INSTRUCTOR_ROLES, ROLES, type InstructorRole, type Role, type World } from './world';

/** One HTTP request as the matrix or the fuzzer sends it. */
export interface Call {
  method: string;
  /** Path and query, relative to the server. */
  path: string;
  json?: unknown;
  /** A multipart body (made fresh for every request). */
  form?: () => FormData;
  /** A raw body with its own content-type header. */
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
  /** The body as text (binary bodies as latin1, so byte patterns survive). */
  text: string;
  /** Parsed JSON bodies are read loosely, as in the other API tests. */
  json: any;
}

/** Sends `call` with `role`'s session cookie (none for anonymous); the reply's cookies are not kept. */
export async function callAs(world: Pick<World, 'url' | 'tokens'>, role: Role, call: Call): Promise<Reply> {
  const headers: Record<string, string> = { ...call.headers };
  const token = world.tokens[role];
  if (token) headers.cookie = `token=${token}`;
  let body: BodyInit | undefined;
  if (call.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(call.json);
  } else if (call.form) {
    body = call.form();
  } else if (call.body !== undefined) {
    body = typeof call.body === 'string' ? call.body : new Uint8Array(call.body);
  }
  const res = await fetch(new URL(call.path, world.url), {
    method: call.method,
    headers,
    body,
    redirect: 'manual',
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const textual = /json|text|mpegurl/.test(type);
  const text = bytes.toString(textual ? 'utf8' : 'latin1');
  let json: unknown;
  if (type.includes('json') && text) json = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, json };
}

/** Why `reply` could be kept by a browser's disk or a shared cache: a JSON answer without `no-store`. */
export function storedJson(reply: Reply): string | undefined {
  const cacheControl = reply.headers.get('cache-control');
  if (!(reply.headers.get('content-type') ?? '').startsWith('application/json')) return undefined;
  return cacheControl === 'no-store' ? undefined : `a JSON answer with Cache-Control ${cacheControl}`;
}

/**
 * The status each role gets. The two instructors' columns may be left out where the route table
 * says them (`instructorsExpect`): written out, they say where a route differs (a list filtered to
 * the other instructor's courses answers them 200).
 */
export type Expect = Record<Exclude<Role, InstructorRole>, number> & Partial<Record<InstructorRole, number>>;

/**
 * What an instructor gets on `route`, when the row does not say: a staff route by its instructor
 * right as written out in instructor-rights.ts, not as the route table under test says it (none:
 * 403; own: as the admin; courses: as the admin for the instructor of the course the row names, 403
 * for the other), a student route 403. Viewer routes decide per video: their rows must say.
 */
export function instructorsExpect(route: string, expect: Expect, role: InstructorRole): number {
  const given = expect[role];
  if (given !== undefined) return given;
  const entry = routes[route as RouteKey];
  if (!entry) throw new Error(`${route} is not in the route table`);
  if (entry.auth === 'student' || entry.auth === 'student-reset') return 403;
  if (entry.auth !== 'admin' && entry.auth !== 'admin-signin')
    throw new Error(`${route}: say what the instructors get (${entry.auth} route)`);
  const right = instructorRight(route);
  if (right === 'none') return 403;
  if (right === 'own') return expect.admin;
  return role === 'instructorOfThisCourse' ? expect.admin : 403;
}

/** The status `role` expects on `route`. */
export function expected(route: string, expect: Expect, role: Role): number {
  return (INSTRUCTOR_ROLES as readonly string[]).includes(role)
    ? instructorsExpect(route, expect, role as InstructorRole)
    : expect[role as Exclude<Role, InstructorRole>];
}

/** 401 signed out, 403 for every student session, `adminStatus` for the admin (instructors: by the table). */
export const adminOnly = (adminStatus = 200): Expect => ({
  anonymous: 401,
  student: 403,
  firstLogin: 403,
  otherCourse: 403,
  revoked: 403,
  admin: adminStatus,
});

/**
 * A scoped staff route on a resource of a course instructorOfThisCourse teaches (A or C), both
 * instructors written out: the admin gets `adminStatus`, that instructor `theirs` (the admin's
 * unless said), the instructor of course B 403.
 */
export const ofTheirCourse = (adminStatus = 200, theirs = adminStatus): Expect => ({
  ...adminOnly(adminStatus),
  instructorOfThisCourse: theirs,
  instructorOfAnotherCourse: 403,
});

/** A scoped staff route naming nothing: 404 for every staff role, before the handler. */
export const unknownToStaff: Expect = {
  ...adminOnly(404),
  instructorOfThisCourse: 404,
  instructorOfAnotherCourse: 404,
};

/** Who can open lecture A1: the enrolled, granted student, the admin and the course's instructor. */
export const watchers: Expect = {
  anonymous: 401,
  student: 200,
  firstLogin: 403,
  otherCourse: 403,
  revoked: 403,
  admin: 200,
  // An instructor watches the lectures of their courses.
  instructorOfThisCourse: 200,
  instructorOfAnotherCourse: 403,
};

/** The same answer for everyone (public routes, or refusals that do not depend on the caller). */
export const everyone = (status: number): Expect =>
  Object.fromEntries(ROLES.map((role) => [role, status])) as Expect;

/** Mutable facts one row learns for later rows (playback URLs, the spare upload). */
export interface MatrixState {
  /** Per role that could open lecture A1: its child playlist, first segment and key URLs (with tokens). */
  playback: Partial<Record<Role, { child: string; segment: string; key: string }>>;
  /** The video the matrix uploads through the streamer, then names, edits and deletes. */
  spare?: { id: string; url: string };
  /** The marked video row and the copy the trace rows upload, and the run the admin's upload made. */
  trace?: { videoId: string; copy: Buffer; runId?: string };
  /** The student's note and question on lecture A1, and the admin's answer (matrix-rows-learning.ts). */
  learning?: { noteId?: string; questionId?: string; answerId?: string };
  /** Checkpoints on lecture A1 made by each staff role, and one no row deletes (matrix-rows-checkpoints.ts). */
  checkpoints?: { byRole: Partial<Record<Role, string>>; spare?: string };
  /** The live class the admin scheduled in course A, and its stream key (matrix-rows-live.ts). */
  live?: { classId?: string; otherClassId?: string; streamKey?: string };
  /** The student's certificate of course A, and one of a graduate outside the world (matrix-rows-certificates.ts). */
  certificates?: { mine: { id: string; serial: string }; graduate: { id: string; serial: string } };
}

export interface Case {
  /** What varies within the route (left out when the route has one case). */
  name?: string;
  request: (world: World, role: Role, state: MatrixState) => Call | Promise<Call>;
  expect: Expect;
  /** Further assertions on the reply (any status). */
  check?: (reply: Reply, role: Role, world: World, state: MatrixState) => void | Promise<void>;
}

export interface Row {
  /** `METHOD url` exactly as Fastify registered it. */
  route: string;
  /** Why anyone may call it, for a public route. */
  public?: string;
  cases: Case[];
}

/** Every identifying value of every person but `role` (students and the admin). */
export function othersData(world: World, role: Role): string[] {
  const out: string[] = [world.admin.id, world.admin.username, world.admin.email];
  for (const [who, person] of Object.entries(world.people)) {
    if (who === role) continue;
    out.push(person.id, person.rollno, person.name, person.email, person.username);
  }
  return out;
}

/** The first identifying value of someone else that `text` contains (case-insensitive), if any. */
export function leakIn(text: string, others: string[]): string | undefined {
  const lower = text.toLowerCase();
  return others.find((value) => lower.includes(value.toLowerCase()));
}

/** `url` with the `t` token removed. */
export function withoutToken(url: string): string {
  const u = new URL(url, 'http://x');
  u.searchParams.delete('t');
  return u.pathname + u.search;
}

/** The URIs of an HLS playlist, as written (relative to the server). */
export function playlistUris(text: string): string[] {
  const uris = text.split('\n').filter((l) => l && !l.startsWith('#'));
  const key = /URI="([^"]+)"/.exec(text)?.[1];
  return key ? [...uris, key] : uris;
}
