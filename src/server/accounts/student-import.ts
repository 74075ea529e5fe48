import { parse } from 'csv-parse/sync';
import { or, sql } from 'drizzle-orm';
import { onUniqueViolation } from '../db/unique-violation';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { badRequest, conflict } from '../errors';
import { defaultUsername, NewStudent } from '../../contract/students';
import { generatePassword, hashPassword } from './passwords';
import type { CreatedUser } from './users';

const REQUIRED = ['rollno', 'name', 'email'] as const;
const OPTIONAL = ['username', 'password'] as const;
export const MAX_IMPORT_ROWS = 5_000;

export interface ImportRow {
  /** Line in the file, the header being line 1. */
  line: number;
  rollno: string;
  name: string;
  email: string;
  username: string;
  /** Whether the file gave a password (it is never echoed back). */
  hasPassword: boolean;
  problems: string[];
}

export interface ImportPreview {
  rows: ImportRow[];
  /** Problems with the file as a whole (header, size). */
  fileProblems: string[];
  valid: boolean;
}

interface ParsedRow {
  line: number;
  input: NewStudent | null;
  raw: Record<string, string>;
  problems: string[];
}

function parseFile(csv: string): { rows: ParsedRow[]; fileProblems: string[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csv.replace(/^\uFEFF/, ''), {
      info: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    return { rows: [], fileProblems: [`The file is not valid CSV: ${(error as Error).message}`] };
  }
  const [header, ...data] = records;
  if (!header) return { rows: [], fileProblems: ['The file is empty.'] };
  const columns = header.record.map((c) => c.trim().toLowerCase());
  const unknown = columns.filter(
    (c) => !(REQUIRED as readonly string[]).includes(c) && !(OPTIONAL as readonly string[]).includes(c),
  );
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  const fileProblems: string[] = [];
  if (missing.length)
    fileProblems.push(
      `Line 1: the header lacks ${missing.join(', ')} (expected rollno,name,email[,username][,password]).`,
    );
  if (unknown.length) fileProblems.push(`Line 1: unknown column ${unknown.join(', ')}.`);
  if (data.length === 0) fileProblems.push('The file has no student rows.');
  if (data.length > MAX_IMPORT_ROWS)
    fileProblems.push(
      `The file has ${data.length} rows; at most ${MAX_IMPORT_ROWS} can be imported at once.`,
    );
  if (fileProblems.length) return { rows: [], fileProblems };

  const rows = data.map(({ record, info }) => {
    const raw: Record<string, string> = {};
    columns.forEach((column, i) => (raw[column] = record[i] ?? ''));
    const problems: string[] = [];
    if (record.length !== columns.length)
      problems.push(`has ${record.length} fields, the header has ${columns.length}`);
    // Blank optional columns mean "not given"; blank required ones get their own message.
    const candidate = Object.fromEntries(
      Object.entries(raw).filter(([k, v]) => v !== '' || !(OPTIONAL as readonly string[]).includes(k)),
    );
    const parsed = NewStudent.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        problems.push(issue.message.startsWith('Invalid input') ? `${field} is missing` : issue.message);
      }
    }
    return { line: info.lines, input: parsed.success ? parsed.data : null, raw, problems };
  });
  return { rows, fileProblems };
}

/** Checks every row of a student CSV (shape, duplicates in the file, accounts that already exist) without writing. */
export async function previewStudentImport(db: Db, csv: string): Promise<ImportPreview> {
  const { rows, fileProblems } = parseFile(csv);
  const key = (row: ParsedRow) => ({
    rollno: (row.input?.rollno ?? row.raw.rollno ?? '').toLowerCase(),
    email: (row.input?.email ?? row.raw.email ?? '').toLowerCase(),
    username: (row.input?.username ?? defaultUsername(row.raw.rollno ?? '')).toLowerCase(),
  });

  const seen = {
    rollno: new Map<string, number>(),
    email: new Map<string, number>(),
    username: new Map<string, number>(),
  };
  for (const row of rows) {
    const k = key(row);
    for (const field of ['rollno', 'email', 'username'] as const) {
      if (!k[field]) continue;
      const first = seen[field].get(k[field]);
      if (first !== undefined) row.problems.push(`${label(field)} repeats line ${first}`);
      else seen[field].set(k[field], row.line);
    }
  }

  const keys = rows.map(key);
  const existing = rows.length
    ? await db
        .select({ username: users.username, email: users.email, rollno: users.rollno })
        .from(users)
        .where(
          or(
            sql`lower(${users.username}) in ${inList(keys.map((k) => k.username))}`,
            sql`lower(${users.email}) in ${inList(keys.map((k) => k.email))}`,
            sql`lower(${users.rollno}) in ${inList(keys.map((k) => k.rollno))}`,
          ),
        )
    : [];
  const taken = {
    username: new Set(existing.map((u) => u.username.toLowerCase())),
    email: new Set(existing.map((u) => u.email.toLowerCase())),
    rollno: new Set(existing.map((u) => u.rollno?.toLowerCase()).filter(Boolean)),
  };
  rows.forEach((row, i) => {
    for (const field of ['rollno', 'email', 'username'] as const) {
      if (keys[i]![field] && taken[field].has(keys[i]![field]))
        row.problems.push(`${label(field)} already belongs to an account`);
    }
  });

  const out: ImportRow[] = rows.map((row) => ({
    line: row.line,
    rollno: row.raw.rollno ?? '',
    name: row.raw.name ?? '',
    email: row.raw.email ?? '',
    username: row.input?.username ?? defaultUsername(row.raw.rollno ?? ''),
    hasPassword: Boolean(row.raw.password),
    problems: row.problems,
  }));
  return {
    rows: out,
    fileProblems,
    valid: fileProblems.length === 0 && out.every((r) => r.problems.length === 0),
  };
}

/** A valid row of the file with its password (given or generated) and that password's hash. */
interface PreparedStudent {
  student: NonNullable<ParsedRow['input']>;
  password: string;
  generated: boolean;
  hash: string;
}

/** Imports every row or none: any problem refuses the whole file with a 400 naming each bad line. */
export async function commitStudentImport(db: Db, csv: string): Promise<CreatedUser[]> {
  const preview = await previewStudentImport(db, csv);
  if (!preview.valid) throw badRequest(describeProblems(preview), { preview });
  const { rows } = parseFile(csv);
  const prepared = await Promise.all(
    rows.map(async ({ input }) => {
      const student = input!;
      const password = student.password ?? generatePassword();
      return { student, password, generated: !student.password, hash: await hashPassword(password) };
    }),
  );
  // Another request may have taken a name since the preview: the file is then refused as a whole.
  return onUniqueViolation(
    () => insertAll(db, prepared),
    async () => {
      const again = await previewStudentImport(db, csv);
      return again.valid
        ? conflict('A student of this file was added meanwhile. Please try again.')
        : badRequest(describeProblems(again), { preview: again });
    },
  );
}

async function insertAll(db: Db, prepared: PreparedStudent[]): Promise<CreatedUser[]> {
  return db.transaction(async (tx) => {
    const created: CreatedUser[] = [];
    for (const { student, password, generated, hash } of prepared) {
      const [row] = await tx
        .insert(users)
        .values({
          role: 'student',
          username: student.username ?? defaultUsername(student.rollno),
          email: student.email,
          name: student.name,
          rollno: student.rollno,
          passwordHash: hash,
          firstLogin: true,
        })
        .returning();
      created.push({
        id: row!.id,
        username: row!.username,
        email: row!.email,
        name: row!.name,
        rollno: row!.rollno,
        role: 'student',
        generatedPassword: generated ? password : undefined,
      });
    }
    return created;
  });
}

export function describeProblems(preview: ImportPreview): string {
  const lines = [
    ...preview.fileProblems,
    ...preview.rows.filter((r) => r.problems.length).map((r) => `Line ${r.line}: ${r.problems.join('; ')}.`),
  ];
  const shown = lines.slice(0, 20);
  if (lines.length > shown.length) shown.push(`…and ${lines.length - shown.length} more.`);
  return `Nothing was imported. ${shown.join(' ')}`;
}

function label(field: 'rollno' | 'email' | 'username'): string {
  return { rollno: 'roll number', email: 'e-mail', username: 'username' }[field];
}

function inList(values: string[]) {
  const unique = [...new Set(values.filter(Boolean))];
  return sql`(${sql.join(unique.length ? unique.map((v) => sql`${v}`) : [sql`null`], sql`, `)})`;
}
