import type { FastifyReply, FastifyRequest } from 'fastify';
import { FRESH_FACTOR_SECONDS, SESSION_COOKIE, SESSION_MAX_AGE_SECONDS } from '../../contract/constants';
import type { AuthLevel, InstructorRight, RouteScope } from '../../contract/route-kit';
import { serverMessages } from '../../contract/messages';
import type { Authenticated, SessionLookup } from './session';
import type { Clock } from '../clock';
import { forbidden, unauthorized } from '../errors';
import { requireScope, type OwnerLookup } from './staff-scope';

declare module 'fastify' {
  interface FastifyRequest {
    authLookup?: Promise<Authenticated | null>;
  }
}

/** The session token from the `token` cookie or an `Authorization: Bearer` header. */
export function readToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return request.cookies[SESSION_COOKIE] || undefined;
}

/**
 * The session cookie's attributes, the one rule for setting and clearing it. `Secure` only when the
 * request came over HTTPS (TLS_CERT, or a proxy's `X-Forwarded-Proto: https` with TRUST_PROXY):
 * browsers drop a Secure cookie set over plain HTTP (WebKit even on 127.0.0.1, all of them on a LAN
 * address), so a Secure-always cookie made sign-in silently fail there.
 */
export function sessionCookieOptions(request: FastifyRequest) {
  return { path: '/', httpOnly: true, secure: request.protocol === 'https', sameSite: 'lax' } as const;
}

export function setSessionCookie(reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    ...sessionCookieOptions(reply.request),
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(reply.request));
}

/**
 * Session resolution and the role guards every route starts with. `factorRequired`: staff must hold
 * a second factor (ADMIN_MFA=required); `owners`: whom the ids of staff routes' scopes name.
 */
export function createAuth(
  sessions: SessionLookup,
  clock: Clock,
  { factorRequired, owners }: { factorRequired: boolean; owners: OwnerLookup },
) {
  /** The request's session, looked up at most once per request. */
  function authOf(request: FastifyRequest): Promise<Authenticated | null> {
    if (!request.authLookup) {
      const token = readToken(request);
      request.authLookup = token ? sessions.find(token, clock.now()) : Promise.resolve(null);
    }
    return request.authLookup;
  }

  /** Any signed-in session, including a first-login session limited to the password reset. */
  async function requireSession(request: FastifyRequest): Promise<Authenticated> {
    const auth = await authOf(request);
    if (!auth) throw unauthorized();
    return auth;
  }

  /** A student with a full session (password already reset). */
  async function requireStudent(request: FastifyRequest): Promise<Authenticated> {
    const auth = await requireSession(request);
    if (auth.user.role !== 'student') throw forbidden(serverMessages.studentsOnly);
    if (auth.scope !== 'full') throw forbidden(serverMessages.sessionLimitedToReset);
    return auth;
  }

  /**
   * The one rule for staff routes: an admin, or an instructor where the route's `instructor` right
   * is not 'none' (a 'courses' route's scope then checks the ids it names, http/staff-scope.ts).
   */
  function admitsStaff(auth: Authenticated, instructor: InstructorRight): boolean {
    return auth.user.role === 'admin' || (auth.user.role === 'instructor' && instructor !== 'none');
  }

  /** An admin (or an instructor the route admits) with a full session. */
  async function requireAdmin(
    request: FastifyRequest,
    instructor: InstructorRight = 'none',
  ): Promise<Authenticated> {
    const auth = await requireSession(request);
    if (!admitsStaff(auth, instructor) || auth.scope !== 'full') throw forbidden(serverMessages.adminsOnly);
    return auth;
  }

  /**
   * Any session of a staff member the route admits: signed in, or between the password and the
   * second factor (mfa/ decides further).
   */
  async function requireAdminSignIn(
    request: FastifyRequest,
    instructor: InstructorRight = 'none',
  ): Promise<Authenticated> {
    const auth = await requireSession(request);
    if (!admitsStaff(auth, instructor)) throw forbidden(serverMessages.adminsOnly);
    return auth;
  }

  /**
   * The one rule for sensitive staff routes (route table `freshFactor`): the session proved the
   * second factor within FRESH_FACTOR_SECONDS. A staff member without a factor has none to prove
   * under ADMIN_MFA=optional; under `required` only the `enrol` step (what the password opens when
   * there is none) may go on, to set up the first one, and any other session is refused until a
   * sign-in sets one up. The stale-factor message is what the admin screens turn into a code prompt.
   */
  async function requireFreshFactor(auth: Authenticated): Promise<void> {
    const now = clock.now().getTime();
    if (auth.factorAt && now - auth.factorAt.getTime() <= FRESH_FACTOR_SECONDS * 1000) return;
    if (await sessions.hasFactor(auth.user.id)) throw forbidden(serverMessages.mfaFreshFactor);
    if (!factorRequired || auth.scope === 'enrol') return;
    throw forbidden(serverMessages.mfaEnrolAtSignIn);
  }

  /** Any student session, the first-login one limited to the password reset included. */
  async function requireStudentSession(request: FastifyRequest): Promise<Authenticated> {
    const auth = await requireSession(request);
    if (auth.user.role !== 'student') throw forbidden(serverMessages.studentsOnly);
    return auth;
  }

  /** A full session of any role (students are then authorized per video). */
  async function requireViewer(request: FastifyRequest): Promise<Authenticated> {
    const auth = await requireSession(request);
    if (auth.scope !== 'full') throw forbidden(serverMessages.sessionLimitedToReset);
    return auth;
  }

  type Guard = (request: FastifyRequest, instructor: InstructorRight) => Promise<Authenticated>;
  /** The guard of a route table auth level; public and token routes have none (the handler decides). */
  const guards: Record<AuthLevel, Guard | undefined> = {
    public: undefined,
    token: undefined,
    student: requireStudent,
    'student-reset': requireStudentSession,
    admin: requireAdmin,
    'admin-signin': requireAdminSignIn,
    viewer: requireViewer,
  };

  return {
    authOf,
    requireSession,
    requireStudent,
    requireAdmin,
    requireFreshFactor,
    /** A 'courses' route's scope over its parsed input (http/staff-scope.ts): 404 or 403 before the handler. */
    requireScope: (auth: Authenticated, scope: RouteScope, input: Record<string, unknown>) =>
      requireScope(owners, auth, scope, input),
    /** The guard of a route: its auth level, and for staff routes what an instructor may do there. */
    guard: (level: AuthLevel, instructor: InstructorRight = 'none') => {
      const guard = guards[level];
      return guard && ((request: FastifyRequest) => guard(request, instructor));
    },
  };
}

export type Auth = ReturnType<typeof createAuth>;
