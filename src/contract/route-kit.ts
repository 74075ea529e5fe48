import type { z } from 'zod';

/**
 * Who may call a route; the server applies it before the body is read (a refused request gets
 * 401/403, never a 400 or a 404):
 * - public: anyone (the handler may still read an optional session);
 * - student: a student with a full session; student-reset: any student session, the first-login one
 *   limited to the password reset included;
 * - admin: an admin with a full session (an instructor too where the route's `instructor` right allows);
 * - admin-signin: any admin (or instructor) session, the one between the password and the second factor included
 *   (the handler decides what each scope may do: the second step, setting up a factor);
 * - viewer: any full session (students are then authorized per video by the handler);
 * - token: a playback token in the URL, checked by the handler (no session lookup on the hot path).
 */
export type AuthLevel =
  'public' | 'student' | 'student-reset' | 'admin' | 'admin-signin' | 'viewer' | 'token';

/**
 * What an instructor (staff scoped to the courses an admin assigned) may do on an admin route:
 * - none: nothing (403, admins only): other courses, access grants, students' accounts, admins,
 *   backups, tracing, settings;
 * - own: their own account (sign-in steps, second factor, passkeys, sessions, password);
 * - courses: what the route does, within their courses: a course, video, caption or question the
 *   route names is checked by its `scope` before the handler (another course's answers 403); lists
 *   show their courses' rows only (the handler filters them).
 */
export type InstructorRight = 'none' | 'own' | 'courses';

/**
 * What a staff route's ids name. Each belongs to a course: a video (by its id, or `upload`: by the
 * stream URL an upload answered) to its course, or to no course yet; a question or a checkpoint to
 * its video's; a live class to its course.
 */
export type ScopeKind = 'video' | 'upload' | 'course' | 'question' | 'checkpoint' | 'live-class';

/**
 * A 'courses' route's scope: which input fields (path parameters, body or query fields, as parsed)
 * name a resource, and of what kind. The server checks them once, before the handler
 * (http/staff-scope.ts): a name of nothing is 404 for every staff role, another course's resource
 * 403 for an instructor; a field left out names nothing to check, and a course field sent as null
 * ("no course") is the admins'.
 */
export type RouteScope = Readonly<Record<string, ScopeKind>>;

/** Staff routes must say what an instructor may do there; no other route names it. */
type RouteAccess =
  | { auth: 'admin' | 'admin-signin'; instructor: 'none' | 'own'; scope?: never }
  | { auth: 'admin' | 'admin-signin'; instructor: 'courses'; scope?: RouteScope }
  | { auth: Exclude<AuthLevel, 'admin' | 'admin-signin'>; instructor?: never; scope?: never };

type RouteBase = RouteAccess & {
  /** Why anyone may call it: required for public and token routes. */
  why?: string;
  /** A sensitive admin route: the second factor must have been proven within the last 10 minutes (403 otherwise). */
  freshFactor?: true;
  /** A student API route that answers outside opening hours too. */
  alwaysOpen?: boolean;
  /** Validated before the handler runs; the handler gets the parsed values. */
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  headers?: z.ZodType;
  /** Multipart fields, read by the handler itself as the parts stream in. */
  multipart?: z.ZodType;
};

/** A route that answers JSON of `response` (checked against it in tests). */
export type JsonRoute = RouteBase & {
  response: z.ZodType;
  /** The success status, when not 200. */
  status?: number;
  /** Content types the route may answer instead when the client asks for a download (`?format=csv`). */
  download?: readonly string[];
};

/** A route that answers bytes (playlists, segments, keys, images) of one of these content types. */
export type FileRoute = RouteBase & {
  file: readonly string[];
  /** Served first by the raw segment fast path (media/delivery/fast-path.ts), this route being its fallback. */
  fastPath?: true;
};

export type RouteSpec = JsonRoute | FileRoute;

/** `METHOD /full/path`, with `:name` for path parameters. */
export type RouteTemplate = `${'GET' | 'POST' | 'PATCH' | 'DELETE'} /${string}`;

/** The method and path of a route key. */
export function splitRouteKey(key: string): { method: string; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space), path: key.slice(space + 1) };
}

/** The names of a path's `:params`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type Schema<R, F extends string> = R extends { [K in F]: infer S extends z.ZodType } ? S : undefined;

/** What a handler receives after validation (the schemas' outputs). */
export type Parsed<R, F extends 'body' | 'query' | 'params' | 'headers'> =
  Schema<R, F> extends z.ZodType ? z.output<Schema<R, F>> : undefined;

/** What a client sends (the schemas' inputs). */
export type Sent<R, F extends 'body' | 'query'> =
  Schema<R, F> extends z.ZodType ? z.input<Schema<R, F>> : never;

/** The JSON a route answers, or never for a file route. */
export type Answer<R> = R extends { response: infer S extends z.ZodType } ? z.output<S> : never;

type FieldsOf<R, F extends 'body' | 'query'> = R extends { [K in F]: infer S extends z.ZodType }
  ? keyof z.input<S> & string
  : never;

/** What a route's scope may name: its path's parameters, its body's and its query's fields. */
type InputFields<K extends string, R> = PathParams<K> | FieldsOf<R, 'body'> | FieldsOf<R, 'query'>;

/**
 * The 'courses' routes of table `T` that break the scope rule: a path with a parameter and no
 * `scope`, or a scope naming a field the route does not read. routes.ts wants none.
 */
export type MisScopedRoutes<T> = {
  [K in keyof T & string]: T[K] extends { instructor: 'courses' }
    ? T[K] extends { scope: infer S }
      ? Exclude<keyof S, InputFields<K, T[K]>> extends never
        ? never
        : K
      : PathParams<K> extends never
        ? never
        : K
    : never;
}[keyof T & string];
