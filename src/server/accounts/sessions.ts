import { and, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users, type Role, type SessionScope } from '../db/schema';
import { SESSION_MAX_AGE_SECONDS } from '../../contract/constants';
import { hashToken, newSessionToken } from './tokens';

export interface SessionUser {
  id: string;
  role: Role;
  username: string;
  email: string;
  name: string;
  rollno: string | null;
  firstLogin: boolean;
}

export interface Authenticated {
  sessionId: string;
  scope: SessionScope;
  user: SessionUser;
}

/** Session queries for one database; the lookup runs on every signed-in request, so it is prepared once. */
export function sessionStore(db: Db) {
  const lookup = db
    .select({
      sessionId: sessions.id,
      scope: sessions.scope,
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
      return row ?? null;
    },

    /**
     * Starts a session and returns its token. A student keeps at most `maxPerStudent` sessions:
     * the oldest are ended, because shared accounts are how course content leaks.
     */
    async create(user: { id: string; role: Role }, scope: SessionScope, now: Date, maxPerStudent: number) {
      const token = newSessionToken();
      await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(sessions)
          .values({
            tokenHash: hashToken(token),
            userId: user.id,
            scope,
            createdAt: now,
            expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000),
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
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
