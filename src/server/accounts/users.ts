import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { onUniqueViolation } from '../db/unique-violation';
import type { Db } from '../db/client';
import { hasRow } from '../db/has-row';
import { users, type Role } from '../db/schema';
import { adminMessages } from '../../contract/messages';
import { isUuid, oneById, uniqueUuids } from '../db/ids';
import { conflict, notFound } from '../errors';
import { defaultUsername, type NewAdmin, type NewStudent } from '../../contract/students';
import { generatePassword, hashPassword } from './passwords';

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
  return hasRow(db, users, eq(users.role, 'admin'));
}

/** Which of username, e-mail and roll number are already taken (case-insensitive). */
export async function takenIdentifiers(
  db: Db,
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

export async function createAdmin(db: Db, input: NewAdmin): Promise<CreatedUser> {
  const { username, email, password } = input;
  return insertUser(
    db,
    { role: 'admin', username, email, name: input.name ?? username, firstLogin: false },
    password,
  );
}

/** Creates a student who must reset their password at first sign-in. */
export async function createStudent(db: Db, input: NewStudent): Promise<CreatedUser> {
  const { rollno, name, email, password } = input;
  const username = input.username ?? defaultUsername(rollno);
  return insertUser(db, { role: 'student', username, email, name, rollno, firstLogin: true }, password);
}

/**
 * Inserts a user unless one of their identifiers is taken (409). Without a password one is
 * generated and returned, to be mailed to them.
 */
export async function insertUser(
  db: Db,
  values: Omit<typeof users.$inferInsert, 'passwordHash'>,
  password: string | undefined,
): Promise<CreatedUser> {
  const taken = await takenIdentifiers(db, { ...values, rollno: values.rollno ?? undefined });
  if (taken.length) throw conflict(takenMessage(taken));
  const initial = password ?? generatePassword();
  const passwordHash = await hashPassword(initial);
  // Another request may have taken a name since the check (two admins, a double submit).
  const [row] = await onUniqueViolation(
    () =>
      db
        .insert(users)
        .values({ ...values, passwordHash })
        .returning(),
    async () =>
      conflict(takenMessage(await takenIdentifiers(db, { ...values, rollno: values.rollno ?? undefined }))),
  );
  return { ...pick(row!), generatedPassword: password ? undefined : initial };
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

/** The student, or a 404 (admins are not students). */
export function requireStudent(db: Db, studentId: string) {
  return oneById(studentId, adminMessages.studentNotFound, () =>
    db
      .select()
      .from(users)
      .where(and(eq(users.id, studentId), eq(users.role, 'student')))
      .limit(1),
  );
}

/** The ids, all of existing students, or a 404. */
export async function requireStudents(db: Db, studentIds: string[]): Promise<string[]> {
  const ids = uniqueUuids(studentIds);
  if (!ids.every(isUuid)) throw notFound(adminMessages.studentNotFound);
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.role, 'student')));
  if (found.length !== ids.length) throw notFound(adminMessages.studentNotFound);
  return ids;
}
