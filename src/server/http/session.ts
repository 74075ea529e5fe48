import type { Role, SessionScope } from '../db/schema';

/** The signed-in user a request carries (accounts/sessions.ts reads it from the database). */
export interface SessionUser {
  id: string;
  role: Role;
  username: string;
  email: string;
  name: string;
  rollno: string | null;
  firstLogin: boolean;
}

/** A request's session: declared here for the guards, implemented by accounts/sessions.ts. */
export interface Authenticated {
  sessionId: string;
  scope: SessionScope;
  user: SessionUser;
  /** When this session last proved the admin's second factor (null: never). */
  factorAt: Date | null;
  /** An instructor's courses (read with the session, once per request); absent for other roles. */
  teaches?: readonly string[];
}

/** Admins and instructors: the roles that sign in at /adminlogin with a second factor. */
export function isStaff(role: Role): role is 'admin' | 'instructor' {
  return role === 'admin' || role === 'instructor';
}

/** What the guards need of the session store: the session a token opens at `now`, if any. */
export interface SessionLookup {
  find(token: string, now: Date): Promise<Authenticated | null>;
  /** Whether the admin holds a confirmed second factor (the fresh-factor rule asks). */
  hasFactor(userId: string): Promise<boolean>;
}
