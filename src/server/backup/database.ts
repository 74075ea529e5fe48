import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import type pg from 'pg';
import type { Db } from '../db/client';
import { BackupError } from './errors';
import type { TableStat } from './manifest';

/** A raw query on one connection (or PGlite's one session). */
export type Query = <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<Row[]>;

/** The driver under Drizzle: PGlite's instance or pg's pool. */
export const rawClient = (db: Db) => (db as unknown as { $client: PGlite | pg.Pool }).$client;

/**
 * Per-table row counts and checksums, the same on both engines for the same rows: each row's text
 * form (TimeZone UTC, set by the caller) hashed, the hashes sorted bytewise, hashed again.
 */
export async function tableStats(query: Query): Promise<Record<string, TableStat>> {
  const tables = await query<{ schema: string; name: string }>(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1, 2`,
  );
  const stats: Record<string, TableStat> = {};
  for (const { schema, name } of tables) {
    const [row] = await query<{ rows: number; checksum: string }>(
      `select count(*)::int as rows,
              md5(coalesce(string_agg(h, '' order by h collate "C"), '')) as checksum
         from (select md5(t::text) as h from "${schema}"."${name}" t) r`,
    );
    stats[`${schema}.${name}`] = { rows: row!.rows, checksum: row!.checksum };
  }
  return stats;
}

/**
 * Drops what one engine's pg_dump writes and the other cannot run: the `\restrict KEY` /
 * `\unrestrict KEY` psql meta-commands of newer releases (the pair with the dump's own key) and
 * PostgreSQL 17's `SET transaction_timeout` among the header's settings. Data lines never match:
 * the header ends at the first statement, and the key is random.
 */
export function normaliseDump(sql: string): string {
  const lines = sql.split('\n');
  const key = /^\\restrict (\S+)$/.exec(lines.find((l) => l.startsWith('\\restrict ')) ?? '')?.[1];
  const headerEnd = lines.findIndex((l) => /^(CREATE|ALTER|INSERT|COPY|COMMENT|DROP)\b/.test(l));
  return lines
    .filter((line, i) => {
      if (key && (line === `\\restrict ${key}` || line === `\\unrestrict ${key}`)) return false;
      return !(i < headerEnd && /^SET transaction_timeout = /.test(line));
    })
    .join('\n');
}

/** What a snapshot answers: the plain SQL dump and whatever `work` read in the same snapshot. */
export interface Snapshot<T> {
  dump: string;
  serverVersion: string;
  result: T;
}

/**
 * Reads the database in one snapshot: the dump, and `work`'s queries (counts, checksums, the media
 * references), see exactly the same rows.
 * - PostgreSQL: a repeatable-read transaction exports its snapshot and pg_dump reads with it.
 * - PGlite (one session, this process): every other query waits while the dump and `work` run.
 */
export async function snapshotDatabase<T>(
  db: Db,
  kind: 'pglite' | 'postgres',
  databaseUrl: string | undefined,
  work: (query: Query) => Promise<T>,
): Promise<Snapshot<T>> {
  return kind === 'pglite'
    ? snapshotPglite(rawClient(db) as PGlite, work)
    : snapshotPostgres(rawClient(db) as pg.Pool, databaseUrl!, work);
}

async function snapshotPglite<T>(client: PGlite, work: (query: Query) => Promise<T>): Promise<Snapshot<T>> {
  return client.transaction(async (tx) => {
    // The wrapper's transaction holds PGlite's lock; its BEGIN is closed so pg_dump can open its own.
    await tx.query('COMMIT');
    const session = {
      query: tx.query.bind(tx),
      exec: tx.exec.bind(tx),
      execProtocolRawStream: client.execProtocolRawStream.bind(client),
    } as unknown as PGlite;
    const file = await pgDump({ pg: session, args: ['--no-owner', '--no-privileges'] });
    await tx.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    try {
      await tx.query(`SET LOCAL TimeZone = 'UTC'`);
      const query: Query = async (sql, params) => (await tx.query(sql, params)).rows as never;
      const [row] = await query<{ version: string }>(`select current_setting('server_version') as version`);
      const result = await work(query);
      return { dump: normaliseDump(await file.text()), serverVersion: row!.version, result };
    } finally {
      // Leaves a transaction open for the wrapper's own COMMIT.
      await tx.query('COMMIT');
      await tx.query('BEGIN');
    }
  });
}

async function snapshotPostgres<T>(
  pool: pg.Pool,
  url: string,
  work: (query: Query) => Promise<T>,
): Promise<Snapshot<T>> {
  const conn = await pool.connect();
  try {
    await conn.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await conn.query(`SET LOCAL TimeZone = 'UTC'`);
    const { rows } = await conn.query<{ snapshot: string; version: string; major: number }>(
      `select pg_export_snapshot() as snapshot, current_setting('server_version') as version,
              current_setting('server_version_num')::int / 10000 as major`,
    );
    const { snapshot, version, major } = rows[0]!;
    const dumping = runPgDump(url, major, snapshot);
    const query: Query = async (sql, params) => (await conn.query(sql, params)).rows as never;
    const result = await work(query);
    const dump = await dumping;
    await conn.query('COMMIT');
    return { dump: normaliseDump(dump), serverVersion: version, result };
  } catch (error) {
    await conn.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    conn.release();
  }
}

/** Debian's pg_dump of the server's major version (postgresql-client-NN), else the one on PATH. */
function pgDumpBinary(major: number): string {
  const debian = `/usr/lib/postgresql/${major}/bin/pg_dump`;
  return existsSync(debian) ? debian : 'pg_dump';
}

/** The connection as libpq's environment, so the password never shows in a process list. */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = {
    PGHOST: u.hostname || '127.0.0.1',
    PGPORT: u.port || '5432',
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)) || 'postgres',
  };
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

function runPgDump(url: string, major: number, snapshot: string): Promise<string> {
  const binary = pgDumpBinary(major);
  return new Promise((resolve, reject) => {
    const child = spawn(
      binary,
      ['--no-owner', '--no-privileges', '--rows-per-insert=100', `--snapshot=${snapshot}`],
      { env: { ...process.env, ...libpqEnv(url) }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error) =>
      reject(
        new BackupError(
          `pg_dump could not run (${binary}: ${error.message}); install postgresql-client-${major}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new BackupError(`pg_dump failed: ${err.trim().split('\n')[0] ?? `exit ${code}`}`));
    });
  });
}

/**
 * Replaces the database's content with a dump: both schemas dropped (the caller made sure the
 * install is empty or was backed up), the dump run as it is. `exec` runs many statements at once.
 */
export async function loadDump(exec: (sql: string) => Promise<unknown>, dump: string): Promise<void> {
  await exec(
    'DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;',
  );
  try {
    await exec(dump);
  } catch (error) {
    throw new BackupError(`The database dump does not load: ${(error as Error).message}`);
  }
  await exec('SET search_path TO DEFAULT');
}
