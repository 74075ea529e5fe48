import { stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { listFiles } from '../support/media-kit';

/** Every row of every table (sorted, as JSON) and every file under DATA_DIR with its size. */
export interface Snapshot {
  tables: Map<string, string[]>;
  files: string[];
}

/** Per database: its tables, and each table's rows as last read with the checksum they had. */
const tableNamesOf = new WeakMap<Db, string[]>();
const rowsSeen = new WeakMap<Db, Map<string, { checksum: string; rows: string[] }>>();
/** Per database: its server's transaction snapshot at the last checksum, when no transaction was open. */
const quietAt = new WeakMap<Db, string>();

async function rowsOf(db: Db, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  const result = await db.execute(query);
  return result.rows;
}

/**
 * Reads the whole database and the data folder (the embedded database's own files excluded). One
 * statement asks every table's checksum (md5 of its rows as text, in order); only a table whose
 * checksum moved since the last snapshot is read again, so the snapshot after a refused request,
 * which changes nothing, costs one query instead of a read of every table.
 */
export async function takeSnapshot(db: Db, dataDir: string): Promise<Snapshot> {
  let tableNames = tableNamesOf.get(db);
  tableNames ??= (
    await rowsOf(
      db,
      sql`select table_schema || '.' || table_name as name from information_schema.tables
          where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
          order by 1`,
    )
  ).map((r) => String(r.name));
  tableNamesOf.set(db, tableNames);
  const seen = rowsSeen.get(db) ?? new Map<string, { checksum: string; rows: string[] }>();
  rowsSeen.set(db, seen);
  // "xmin:xmax:" with xmin = xmax: no transaction is open and xmax is the next to write. A row
  // changes only in a transaction given an id, which moves xmax; the same quiet snapshot as at the
  // last checksum therefore means no row of any table changed since (the embedded database always
  // shows it after a refused request; a PostgreSQL server shared with other tests seldom does).
  const [current] = await rowsOf(db, sql`select pg_current_snapshot()::text as snapshot`);
  const snapshot = String(current!.snapshot);
  const [xmin, xmax, open] = snapshot.split(':');
  const quiet = xmin === xmax && !open;
  if (quiet && quietAt.get(db) === snapshot && tableNames.every((name) => seen.has(name))) {
    const tables = new Map(tableNames.map((name) => [name, seen.get(name)!.rows]));
    return { tables, files: await filesOf(dataDir) };
  }
  if (quiet) quietAt.set(db, snapshot);
  else quietAt.delete(db);
  const checksums = new Map(
    (
      await rowsOf(
        db,
        sql.join(
          tableNames.map((name) => {
            const [schema, table] = name.split('.') as [string, string];
            return sql`(select ${name}::text as name, count(*) || ':' || coalesce(md5(string_agg(t::text, E'\n' order by t::text)), '') as checksum
                        from ${sql.identifier(schema)}.${sql.identifier(table)} t)`;
          }),
          sql` union all `,
        ),
      )
    ).map((r) => [String(r.name), String(r.checksum)]),
  );
  const tables = new Map<string, string[]>();
  for (const name of tableNames) {
    const checksum = checksums.get(name)!;
    let known = seen.get(name);
    if (known?.checksum !== checksum) {
      const [schema, table] = name.split('.') as [string, string];
      const rows = await rowsOf(db, sql`select * from ${sql.identifier(schema)}.${sql.identifier(table)}`);
      known = { checksum, rows: rows.map((r) => JSON.stringify(r)).sort() };
      seen.set(name, known);
    }
    tables.set(name, known.rows);
  }
  return { tables, files: await filesOf(dataDir) };
}

/** Every file under the data folder with its size (the embedded database's own files excluded). */
async function filesOf(dataDir: string): Promise<string[]> {
  const files: string[] = [];
  for (const file of await listFiles(dataDir)) {
    if (file.startsWith(`db${path.sep}`)) continue;
    const info = await stat(path.join(dataDir, file)).catch(() => undefined);
    files.push(`${file} ${info?.size ?? 'gone'}`);
  }
  return files.sort();
}

/** Changes a refused request may make after all. */
export interface Allowed {
  /** Tables that may change in any way. */
  tables?: readonly string[];
  /** Tables whose rows may go, with files under these folders (a discarded partial upload). */
  removals?: { tables: readonly string[]; folders: readonly string[] };
}

/** What differs between two snapshots, one line per changed table or file, less what is `allowed`. */
export function describeChanges(before: Snapshot, after: Snapshot, allowed: Allowed = {}): string[] {
  const out: string[] = [];
  const names = new Set([...before.tables.keys(), ...after.tables.keys()]);
  for (const name of names) {
    const table = name.split('.').pop()!;
    if (allowed.tables?.includes(table)) continue;
    const old = before.tables.get(name) ?? [];
    const rows = after.tables.get(name) ?? [];
    const oldSet = new Set(old);
    const newSet = new Set(rows);
    const added = rows.filter((r) => !oldSet.has(r));
    const removed = allowed.removals?.tables.includes(table) ? [] : old.filter((r) => !newSet.has(r));
    if (added.length || removed.length) {
      out.push(`${name}: +${added.length} -${removed.length} ${(added[0] ?? removed[0])!.slice(0, 300)}`);
    }
  }
  const oldFiles = new Set(before.files);
  const newFiles = new Set(after.files);
  const mayGo = (f: string) =>
    allowed.removals?.folders.some((folder) => f.startsWith(`${folder}${path.sep}`));
  for (const f of after.files) if (!oldFiles.has(f)) out.push(`file added or changed: ${f}`);
  for (const f of before.files) if (!newFiles.has(f) && !mayGo(f)) out.push(`file removed or changed: ${f}`);
  return out;
}
