import { and, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { hasRow } from '../db/has-row';
import {
  adminFactors,
  adminPasskeys,
  instructorCourses,
  sessions,
  users,
  type Role,
  type SessionScope,
} from '../db/schema';
import {
  ADMIN_SESSION_MAX_SECONDS,
  MFA_PENDING_SECONDS,
  SESSION_MAX_AGE_SECONDS,
} from '../../contract/constants';
import { isStaff, type Authenticated, type SessionUser } from '../http/session';
import { hashToken, newSessionToken } from './tokens';

export type { Authenticated, SessionUser };

/** How long a session lives: staff 12 h (and their pending second step minutes), students a day. */
function lifetimeSeconds(role: Role, scope: SessionScope): number {
  if (scope === 'mfa' || scope === 'enrol') return MFA_PENDING_SECONDS;
  return isStaff(role) ? ADMIN_SESSION_MAX_SECONDS : SESSION_MAX_AGE_SECONDS;
}

/** The client a session was started from: its address and browser (User-Agent). */
export interface SessionClient {
  ip: string;
  userAgent?: string;
}

/** Longer User-Agent headers are cut: the list only names the browser and system. */
const USER_AGENT_MAX = 400;

/** An admin's request marks the session used at most this often (one UPDATE a minute, not one a request). */
const TOUCH_EVERY_MS = 60_000;

/**
 * Session queries for one database (the `SessionLookup` of http/session.ts, and more); the lookup runs
 * on every signed-in request, so it is prepared once. An admin session also ends after
 * `adminIdleMinutes` without a request.
 */
export function sessionStore(db: Db, { adminIdleMinutes = 30 }: { adminIdleMinutes?: number } = {}) {
  const idleMs = adminIdleMinutes * 60_000;
  const lookup = db
    .select({
      sessionId: sessions.id,
      scope: sessions.scope,
      factorAt: sessions.factorAt,
      lastSeenAt: sessions.lastSeenAt,
      user: {
        id: users.id,
        role: users.role,
        username: users.username,
        email: users.email,
        name: users.name,
        rollno: users.rollno,
        firstLogin: users.firstLogin,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.tokenHash, sql.placeholder('hash')), gt(sessions.expiresAt, sql.placeholder('now'))),
    )
    .limit(1)
    .prepare('session_lookup');

  return {
    async find(token: string, now: Date): Promise<Authenticated | null> {
      const [row] = await lookup.execute({ hash: hashToken(token), now });
      if (!row) return null;
      const { lastSeenAt, ...found } = row;
      if (isStaff(found.user.role) && lastSeenAt) {
        const idle = now.getTime() - lastSeenAt.getTime();
        if (idle >= idleMs) {
          await db.delete(sessions).where(eq(sessions.id, found.sessionId));
          return null;
        }
        if (idle >= TOUCH_EVERY_MS)
          await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, found.sessionId));
      }
      if (found.user.role !== 'instructor') return found;
      const taught = await db
        .select({ courseId: instructorCourses.courseId })
        .from(instructorCourses)
        .where(eq(instructorCourses.userId, found.user.id));
      return { ...found, teaches: taught.map((row) => row.courseId) };
    },

    /**
     * Starts a session and returns its token. A student keeps at most `maxPerStudent` sessions:
     * the oldest are ended, because shared accounts are how course content leaks.
     */
    async create(
      user: { id: string; role: Role },
      scope: SessionScope,
      now: Date,
      maxPerStudent: number,
      {
        factorAt = null,
        client,
      }: {
        factorAt?: Date | null;
        /** Where the session was started from (shown in the admin's own sessions list). */
        client?: SessionClient;
      } = {},
    ) {
      const token = newSessionToken();
      await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(sessions)
          .values({
            tokenHash: hashToken(token),
            userId: user.id,
            scope,
            createdAt: now,
            expiresAt: new Date(now.getTime() + lifetimeSeconds(user.role, scope) * 1000),
            lastSeenAt: isStaff(user.role) ? now : null,
            factorAt,
            ip: client?.ip ?? null,
            userAgent: client?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
          })
          .returning({ id: sessions.id });
        if (user.role !== 'student') return;
        const others = await tx
          .select({ id: sessions.id })
          .from(sessions)
          .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, now), ne(sessions.id, created!.id)))
          .orderBy(desc(sessions.createdAt), desc(sessions.id));
        const excess = others.slice(Math.max(0, maxPerStudent - 1)).map((s) => s.id);
        if (excess.length) await tx.delete(sessions).where(inArray(sessions.id, excess));
      });
      return token;
    },

    async end(sessionId: string) {
      await db.delete(sessions).where(eq(sessions.id, sessionId));
    },

    async endAllOf(userId: string) {
      await db.delete(sessions).where(eq(sessions.userId, userId));
    },

    /** Ends every session of the user but `keep` (password changed, "sign out everywhere else"). */
    async endOthersOf(userId: string, keep: string) {
      await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keep)));
    },

    /** The second factor was just proven on this session (sensitive routes want it recent). */
    async markFactor(sessionId: string, now: Date) {
      await db.update(sessions).set({ factorAt: now }).where(eq(sessions.id, sessionId));
    },

    /** The user's live full sessions, newest first (an admin's "your sessions" list). */
    async listOf(userId: string, now: Date) {
      return db
        .select({
          id: sessions.id,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          ip: sessions.ip,
          userAgent: sessions.userAgent,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), eq(sessions.scope, 'full'), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.createdAt));
    },

    /**
     * Whether the admin has a second factor: a confirmed app or a passkey (a session of one without
     * is fresh by default).
     */
    async hasFactor(userId: string): Promise<boolean> {
      const confirmedApp = and(eq(adminFactors.userId, userId), sql`${adminFactors.confirmedAt} is not null`);
      return (
        (await hasRow(db, adminFactors, confirmedApp)) ||
        hasRow(db, adminPasskeys, eq(adminPasskeys.userId, userId))
      );
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
