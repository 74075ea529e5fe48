import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { acquireEmbeddedLock } from './embedded-lock';
import { migrationsFolder, refuseNewerSchema } from './migration-state';
import * as schema from './schema';

/** Raw statements (`execute`) answer `{ rows }` on both engines: PGlite's Results and pg's QueryResult alike. */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: Rows<this['row']>;
}
interface Rows<Row> {
  rows: Row[];
}

/**
 * What every query runs on, for PGlite and PostgreSQL alike: the database, or a transaction of it
 * (a Drizzle transaction is a PgDatabase too, so `db.transaction((tx) => service(tx))` needs no
 * other type). Services take a Db and never ask which engine or whether a transaction is open.
 */
export type Db = PgDatabase<RowsResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs `work` while no other node migrates (PostgreSQL's advisory lock; PGlite has one process). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PostgreSQL's connection pool right now (for metrics); PGlite has no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
}

export interface DatabaseOptions {
  /** undefined: PGlite in `dataDir/db`; `memory://`: in-memory PGlite; `postgres://…`: PostgreSQL. */
  url: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** false: open as it is, without migrating (the doctor looks, it does not change). Default true. */
  migrate?: boolean;
  /**
   * `memory://` only: a database to start from (PGlite's `dumpDataDir`) instead of an empty one. The
   * tests start each school from one migrated image rather than running initdb and every migration.
   */
  image?: Blob;
}

/** The migrations this code knows, oldest first (`when` is what `drizzle.__drizzle_migrations.created_at` records). */
export function migrationJournal(): { tag: string; when: number }[] {
  const file = path.join(migrationsFolder(), 'meta', '_journal.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { entries: { tag: string; when: number }[] }).entries.map(
    ({ tag, when }) => ({ tag, when }),
  );
}

/**
 * The one place the two engines' Drizzle types meet: they differ only in their driver's result
 * type, and both answer raw statements with `{ rows }` (RowsResultHKT).
 */
function asDb(db: PgDatabase<PgQueryResultHKT, typeof schema>): Db {
  return db as unknown as Db;
}

/**
 * Opens the configured database and brings its schema up to date. Same migrations on every engine.
 * Refuses (SchemaTooNewError) a database a newer version of Lectern has migrated: during a rolling
 * upgrade, an old node must not come back up on the new schema.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url?.startsWith('postgres'))
    return openPostgres(options.url, options.poolSize ?? 10, options.migrate ?? true);
  return openPglite(options);
}

/**
 * PGlite runs in this process: a 32 MB buffer cache instead of PostgreSQL's 128 MB keeps its resident
 * memory down. pg_trgm (the search index's partial words, migration 0014) is loaded as on PostgreSQL.
 */
export const pgliteOptions = (sharedBuffers = '32MB') => ({
  postgresqlconf: [`shared_buffers = ${sharedBuffers}`],
  extensions: { pg_trgm },
});
const PGLITE_OPTIONS = pgliteOptions();

/** Runs in a child: `node -e INITDB <pglite entry> <folder>` creates an embedded database there and exits. */
const INITDB = `const { PGlite } = require(process.argv[1]);
new PGlite(process.argv[2]).waitReady.then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;

/**
 * Creates a new embedded database in a short-lived child process. PGlite's initdb runs in two
 * more WASM instances beside the database's own: in this process their ~450 MB would stay resident
 * until a full garbage collection, and part of it for good (freed memory the allocator keeps).
 * Made in a temp folder and renamed, so a crash never leaves a half-made database that looks done.
 */
async function createPgliteDataDir(dir: string): Promise<void> {
  const temp = `${dir}.init-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  try {
    // V8's baseline WebAssembly compiler only: the child lives seconds, and optimizing PGlite's hot
    // functions in the background cost more than it saved (7.5 -> 4.8 CPU-seconds, a third less time).
    await promisify(execFile)(process.execPath, ['--liftoff-only', '-e', INITDB, pglite, temp]);
    await rename(temp, dir);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function openPglite({ url, dataDir, migrate = true, image }: DatabaseOptions): Promise<Database> {
  let release = async () => {};
  let client: PGlite;
  if (url === 'memory://') {
    client = new PGlite({ ...PGLITE_OPTIONS, loadDataDir: image });
  } else {
    // PGlite is one process's database: refuse loudly rather than corrupt it.
    mkdirSync(dataDir, { recursive: true });
    release = acquireEmbeddedLock(dataDir);
    try {
      const dir = path.join(dataDir, 'db');
      if (!existsSync(dir)) await createPgliteDataDir(dir);
      client = new PGlite(dir, PGLITE_OPTIONS);
      await client.waitReady;
    } catch (error) {
      await release();
      throw error;
    }
  }
  const db = drizzlePglite(client, { schema });
  if (migrate) {
    try {
      await refuseNewerSchema(db);
      await migratePglite(db, { migrationsFolder: migrationsFolder() });
    } catch (error) {
      await client.close();
      await release();
      throw error;
    }
  }
  return {
    db: asDb(db),
    kind: 'pglite',
    exclusive: (work) => work(),
    async close() {
      await client.close();
      await release();
    },
  };
}

async function openPostgres(url: string, max: number, migrate: boolean): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server (restart, failover) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor may a checked-out one (a transaction between statements): pg emits 'error' on the client, which the
  // pool only listens to while it is idle. The statement in flight still fails, and the pool drops the client.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema });
  if (migrate) {
    try {
      await withMigrationLock(pool, async () => {
        await refuseNewerSchema(db);
        await migratePg(db, { migrationsFolder: migrationsFolder() });
      });
    } catch (error) {
      await pool.end();
      throw error;
    }
  }
  return {
    db: asDb(db),
    kind: 'postgres',
    exclusive: (work) => withMigrationLock(pool, work),
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** Several nodes may start together: one migrates while the others wait on this advisory lock. */
export async function withMigrationLock<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock(7242010)');
    return await work();
  } finally {
    await lockClient.query('select pg_advisory_unlock(7242010)').catch(() => {});
    lockClient.release();
  }
}
