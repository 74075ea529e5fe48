import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from './client';
import { migrationsFolder, schemaState } from './migration-state';

/**
 * Contract migrations (expand/contract): statements that would break the previous version of
 * Lectern while it still runs on another node (dropping or renaming a table or column, a NOT NULL
 * it does not fill) live in `drizzle/post-deploy/NNNN_name.sql`. Nodes never apply them at
 * start; `npm run cli -- migrate:post-deploy` does, once every node runs the new code. Each file
 * is applied once, in name order, in its own transaction, and recorded in
 * `drizzle.lectern_post_deploy_migrations`.
 */
export function postDeployFolder(): string {
  return path.join(migrationsFolder(), 'post-deploy');
}

/** This code's post-deploy migrations, by file name (without .sql), in order. */
export function knownPostDeploy(folder = postDeployFolder()): string[] {
  let files: string[];
  try {
    files = readdirSync(folder);
  } catch {
    return [];
  }
  return files
    .filter((f) => f.endsWith('.sql'))
    .map((f) => f.slice(0, -4))
    .sort();
}

const TABLE = sql`drizzle.lectern_post_deploy_migrations`;

async function appliedPostDeploy(db: Database['db']): Promise<Set<string>> {
  const present = await db.execute(
    sql`select to_regclass('drizzle.lectern_post_deploy_migrations') is not null as present`,
  );
  if (!(present.rows[0] as { present: boolean } | undefined)?.present) return new Set();
  const rows = await db.execute(sql`select name from ${TABLE}`);
  return new Set(rows.rows.map((r) => (r as { name: string }).name));
}

/** Post-deploy migrations of this code the database has not applied yet. */
export async function pendingPostDeploy(db: Database['db'], folder = postDeployFolder()): Promise<string[]> {
  const applied = await appliedPostDeploy(db);
  return knownPostDeploy(folder).filter((name) => !applied.has(name));
}

/**
 * Applies the pending post-deploy migrations (under the migration lock) and answers their names.
 * Refuses while ordinary migrations are pending: contract steps come after the expand steps.
 */
export async function applyPostDeploy(
  database: Database,
  onApplied: (name: string) => void = () => {},
  folder = postDeployFolder(),
): Promise<string[]> {
  return database.exclusive(async () => {
    const { pending } = await schemaState(database.db);
    if (pending.length)
      throw new Error(
        `${pending.length} ordinary migration${pending.length === 1 ? ' is' : 's are'} not applied yet (start the new version first)`,
      );
    await ensureTable(database.db);
    const done: string[] = [];
    for (const name of await pendingPostDeploy(database.db, folder)) {
      await applyOne(database.db, folder, name);
      done.push(name);
      onApplied(name);
    }
    return done;
  });
}

async function ensureTable(db: Database['db']): Promise<void> {
  await db.execute(sql`create schema if not exists drizzle`);
  await db.execute(
    sql`create table if not exists ${TABLE} (name text primary key, applied_at timestamptz not null default now())`,
  );
}

/** Applies one file in its own transaction and records it. */
async function applyOne(db: Database['db'], folder: string, name: string): Promise<void> {
  const text = readFileSync(path.join(folder, `${name}.sql`), 'utf8');
  await db.transaction(async (tx) => {
    for (const statement of text.split('--> statement-breakpoint')) {
      if (statement.trim()) await tx.execute(sql.raw(statement));
    }
    await tx.execute(sql`insert into ${TABLE} (name) values (${name})`);
  });
}

/**
 * Applies exactly `names` (a restore rebuilding the schema a backup was taken on), in order. The
 * caller checked this code knows each one.
 */
export async function applyPostDeployNamed(
  db: Database['db'],
  names: string[],
  folder = postDeployFolder(),
): Promise<void> {
  if (!names.length) return;
  await ensureTable(db);
  for (const name of [...names].sort()) await applyOne(db, folder, name);
}
