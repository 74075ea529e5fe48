import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { plural } from '../../contract/plural';

/**
 * drizzle-kit's folder: `drizzle/` at the top of the source tree, copied beside the bundle as
 * dist/server/migrations (scripts/build-server.mjs) so a build carries its own.
 */
export function migrationsFolder(): string {
  const file = fileURLToPath(import.meta.url);
  // This module as source (tsx, vitest) is src/server/db/migration-state.ts; bundled, it is inside a .js.
  if (file.endsWith('.ts')) return path.resolve(path.dirname(file), '../../../drizzle');
  return path.join(path.dirname(file), 'migrations');
}

/** A migration this code ships: its file name (without .sql) and the journal's timestamp. */
export interface KnownMigration {
  tag: string;
  when: number;
}

/** The migrations of this build, oldest first (drizzle-kit's journal). */
export function knownMigrations(folder = migrationsFolder()): KnownMigration[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: KnownMigration[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when })).sort((a, b) => a.when - b.when);
}

/** Where the database's schema stands against this code. */
export interface SchemaState {
  /** Migrations of this code the database has not applied yet. */
  pending: KnownMigration[];
  /** Migrations the database applied that this code does not know: a newer version migrated it. */
  unknown: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- both engines' Drizzle databases
type AnyDb = PgDatabase<PgQueryResultHKT, any>;

/**
 * Compares the database's applied migrations (drizzle's table, by timestamp, as drizzle's migrator
 * does) with this code's journal. An empty database has everything pending.
 */
export async function schemaState(db: AnyDb, known = knownMigrations()): Promise<SchemaState> {
  const exists = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  )) as unknown as { rows: { present: boolean }[] };
  if (!exists.rows[0]?.present) return { pending: known, unknown: 0 };
  const applied = (await db.execute(
    sql`select created_at from drizzle.__drizzle_migrations order by created_at`,
  )) as unknown as { rows: { created_at: string | number }[] };
  const times = applied.rows.map((r) => Number(r.created_at));
  const latestApplied = times.length ? Math.max(...times) : -Infinity;
  const newest = known.length ? known[known.length - 1]!.when : -Infinity;
  return {
    pending: known.filter((m) => m.when > latestApplied),
    unknown: times.filter((t) => t > newest).length,
  };
}

/** The database was migrated by a newer version of Lectern than this one: starting would run old code on it. */
export class SchemaTooNewError extends Error {
  constructor(unknown: number, known: KnownMigration[]) {
    const last = known[known.length - 1]?.tag ?? 'none';
    super(
      `The database schema is newer than this version of Lectern (${plural(unknown, 'migration')} after ${last} that this code does not have): deploy the newer version on this node`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/** Throws SchemaTooNewError when the database has a migration this code lacks. */
export async function refuseNewerSchema(db: AnyDb): Promise<void> {
  const known = knownMigrations();
  const state = await schemaState(db, known);
  if (state.unknown > 0) throw new SchemaTooNewError(state.unknown, known);
}
