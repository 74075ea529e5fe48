import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { acquireEmbeddedLock } from './embedded-lock';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** undefined: PGlite in `dataDir/db`; `memory://`: in-memory PGlite; `postgres://…`: PostgreSQL. */
  url: string | undefined;
  dataDir: string;
  poolSize?: number;
}

/** Migrations sit beside this module in the source tree and beside the bundle in dist/server. */
function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.join(here, 'migrations');
}

/** Opens the configured database and brings its schema up to date. Same migrations on every engine. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url?.startsWith('postgres')) return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite(options);
}

/** PGlite runs in this process: a 32 MB buffer cache instead of PostgreSQL's 128 MB keeps its resident memory down. */
const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers = 32MB'] };

async function openPglite({ url, dataDir }: DatabaseOptions): Promise<Database> {
  let release = async () => {};
  let client: PGlite;
  if (url === 'memory://') {
    client = new PGlite(PGLITE_OPTIONS);
  } else {
    // PGlite is one process's database: refuse loudly rather than corrupt it.
    mkdirSync(dataDir, { recursive: true });
    release = acquireEmbeddedLock(dataDir);
    try {
      client = new PGlite(path.join(dataDir, 'db'), PGLITE_OPTIONS);
      await client.waitReady;
    } catch (error) {
      await release();
      throw error;
    }
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: migrationsFolder() });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    async close() {
      await client.close();
      await release();
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server (restart, failover) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor may a checked-out one (a transaction between statements): pg emits 'error' on the client, which the
  // pool only listens to while it is idle. The statement in flight still fails, and the pool drops the client.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema });
  // Several nodes may start together: one migrates while the others wait on the advisory lock.
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock(7242010)');
    await migratePg(db, { migrationsFolder: migrationsFolder() });
  } finally {
    await lockClient.query('select pg_advisory_unlock(7242010)').catch(() => {});
    lockClient.release();
  }
  return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
}
