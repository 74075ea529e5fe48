import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users, type Role } from '../db/schema';
import { conflict } from '../errors';
import { defaultUsername, type NewAdmin, type NewStudent } from '../../contract/students';
import { generatePassword, hashPassword } from './passwords';

type Executor = Pick<Db, 'select' | 'insert'>;

/** Finds a user by username or e-mail, ignoring case. */
export async function findUserByLogin(db: Db, login: string) {
  const key = login.trim().toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(or(eq(sql`lower(${users.username})`, key), eq(sql`lower(${users.email})`, key)))
    .limit(1);
  return user;
}

export async function hasAdmin(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return Boolean(row);
}

/** Which of username, e-mail and roll number are already taken (case-insensitive). */
export async function takenIdentifiers(
  db: Executor,
  who: { username: string; email: string; rollno?: string },
): Promise<string[]> {
  const rows = await db
    .select({ username: users.username, email: users.email, rollno: users.rollno })
    .from(users)
    .where(
      or(
        eq(sql`lower(${users.username})`, who.username.toLowerCase()),
        eq(sql`lower(${users.email})`, who.email.toLowerCase()),
        who.rollno ? eq(sql`lower(${users.rollno})`, who.rollno.toLowerCase()) : undefined,
      ),
    );
  const taken = new Set<string>();
  for (const row of rows) {
    if (row.username.toLowerCase() === who.username.toLowerCase()) taken.add('username');
    if (row.email.toLowerCase() === who.email.toLowerCase()) taken.add('e-mail');
    if (who.rollno && row.rollno?.toLowerCase() === who.rollno.toLowerCase()) taken.add('roll number');
  }
  return [...taken];
}

function takenMessage(taken: string[]): string {
  return `A user with this ${taken.join(' and ')} already exists.`;
}

export interface CreatedUser {
  id: string;
  username: string;
  email: string;
  name: string;
  rollno: string | null;
  role: Role;
  /** Set when the password was generated: to be mailed to the user, never logged. */
  generatedPassword?: string;
}

export async function createAdmin(db: Executor, input: NewAdmin): Promise<CreatedUser> {
  const taken = await takenIdentifiers(db, input);
  if (taken.length) throw conflict(takenMessage(taken));
  const password = input.password ?? generatePassword();
  const [row] = await db
    .insert(users)
    .values({
      role: 'admin',
      username: input.username,
      email: input.email,
      name: input.name ?? input.username,
      passwordHash: await hashPassword(password),
      firstLogin: false,
    })
    .returning();
  return { ...pick(row!), generatedPassword: input.password ? undefined : password };
}

/** Creates a student who must reset their password at first sign-in. */
export async function createStudent(db: Executor, input: NewStudent): Promise<CreatedUser> {
  const username = input.username ?? defaultUsername(input.rollno);
  const taken = await takenIdentifiers(db, { ...input, username });
  if (taken.length) throw conflict(takenMessage(taken));
  const password = input.password ?? generatePassword();
  const [row] = await db
    .insert(users)
    .values({
      role: 'student',
      username,
      email: input.email,
      name: input.name,
      rollno: input.rollno,
      passwordHash: await hashPassword(password),
      firstLogin: true,
    })
    .returning();
  return { ...pick(row!), generatedPassword: input.password ? undefined : password };
}

/** Gives a student a new generated initial password and puts them back on first-login. */
export async function regenerateInitialPassword(db: Db, studentId: string): Promise<string> {
  const password = generatePassword();
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password), firstLogin: true })
    .where(and(eq(users.id, studentId), eq(users.role, 'student')));
  return password;
}

function pick(row: typeof users.$inferSelect) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    name: row.name,
    rollno: row.rollno,
    role: row.role,
  };
}
