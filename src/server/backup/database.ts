import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database, Db } from '../db/client';
import { migrationsFolder } from '../db/migration-state';
import { applyPostDeployNamed, knownPostDeploy } from '../db/post-deploy';
import { BackupError } from './errors';

/** A raw query on one connection (or PGlite's one session). */
export type Query = <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<Row[]>;

/** The driver under Drizzle: PGlite's instance or pg's pool. */
export const rawClient = (db: Db) => (db as unknown as { $client: PGlite | pg.Pool }).$client;

/** A Query on PGlite or one of its transactions. */
export const pgliteQuery =
  (session: Pick<PGlite, 'query'>): Query =>
  async (sql, params) =>
    (await session.query(sql, params)).rows as never;

/**
 * Runs `work` in one transaction on one connection: the database's snapshot for a backup
 * (`readOnly`: repeatable read, so every query sees the same rows), or the load of a restore.
 * - PostgreSQL: one pooled connection, its transaction.
 * - PGlite (one session, this process): every other query waits until `work` is done.
 * Values read as text are in UTC (checksums and rows are the same on both engines).
 */
export async function inTransaction<T>(
  db: Db,
  kind: 'pglite' | 'postgres',
  { readOnly }: { readOnly: boolean },
  work: (query: Query) => Promise<T>,
): Promise<T> {
  if (kind === 'pglite')
    return (rawClient(db) as PGlite).transaction(async (tx) => {
      await tx.query(`SET LOCAL TimeZone = 'UTC'`);
      return work(pgliteQuery(tx));
    });
  const conn = await (rawClient(db) as pg.Pool).connect();
  try {
    await conn.query(`BEGIN ISOLATION LEVEL REPEATABLE READ${readOnly ? ' READ ONLY' : ''}`);
    await conn.query(`SET LOCAL TimeZone = 'UTC'`);
    const result = await work(async (sql, params) => (await conn.query(sql, params)).rows as never);
    await conn.query('COMMIT');
    return result;
  } catch (error) {
    await conn.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    conn.release();
  }
}

/** An empty database's schema as this code's migrations left it at `lastMigration`, and those contract migrations. */
export async function migrateTo(
  database: Pick<Database, 'db' | 'kind'>,
  lastMigration: string,
  postDeploy: string[],
): Promise<void> {
  const journal = JSON.parse(
    await readFile(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((m) => m.tag === lastMigration);
  if (upTo === -1 && lastMigration !== 'none')
    throw new BackupError(`This Lectern does not know the migration ${lastMigration}: upgrade it first.`);
  const unknown = postDeploy.filter((name) => !knownPostDeploy().includes(name));
  if (unknown.length)
    throw new BackupError(
      `This Lectern does not know the contract migration ${unknown[0]}: upgrade it first.`,
    );
  // Drizzle's migrator applies a folder's journal: a copy of ours that ends at the backup's migration.
  const folder = await mkdtemp(path.join(tmpdir(), 'lectern-schema-'));
  try {
    const entries = journal.entries.slice(0, upTo + 1);
    await mkdir(path.join(folder, 'meta'));
    await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
    for (const { tag } of entries)
      await copyFile(path.join(migrationsFolder(), `${tag}.sql`), path.join(folder, `${tag}.sql`));
    const client = rawClient(database.db);
    if (database.kind === 'pglite')
      await migratePglite(drizzlePglite(client as PGlite), { migrationsFolder: folder });
    else await migratePg(drizzlePg(client as pg.Pool), { migrationsFolder: folder });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  await applyPostDeployNamed(database.db, postDeploy);
}

/** Both schemas dropped: the database as a new install has it before its first migration. */
export async function emptySchemas(query: Query): Promise<void> {
  await query('DROP SCHEMA IF EXISTS drizzle CASCADE');
  await query('DROP SCHEMA IF EXISTS public CASCADE');
  await query('CREATE SCHEMA public');
}

/**
 * Format 1's plain SQL dump, run in `exec`: only ever a throwaway in-memory PGlite (checks.ts),
 * where whatever the file holds can reach nothing but that database.
 */
export async function loadSqlDump(exec: (sql: string) => Promise<unknown>, dump: string): Promise<void> {
  try {
    await exec(dump);
  } catch (error) {
    throw new BackupError(`The database dump does not load: ${(error as Error).message}`);
  }
  await exec('SET search_path TO DEFAULT');
}
