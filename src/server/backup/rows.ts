import type { Query } from './database';
import { BackupError } from './errors';
import type { TableStat } from './manifest';
import { SECRET_COLUMNS, SECRET_TABLES } from './secrets';

/**
 * A backup's database (format 2): the rows of every table of the `public` schema, as JSON lines,
 * never SQL. The schema comes from this code's own migrations at restore (schema-at.ts), so the
 * file is data only:
 *
 *   {"lectern":"rows","version":1}
 *   {"table":"public.users","columns":["id","role",…]}
 *   ["3f0c…","admin",…]                     each value in its type's text form, or null
 *   {"sequence":"public.x_seq","value":"42"}
 *   {"end":{"tables":17}}
 *
 * A restore checks every table and column it names against the schema it built, and inserts the
 * values as parameters: a line that is not data stops the restore, and nothing in the file is
 * ever run as a statement.
 */
const HEADER = { lectern: 'rows', version: 1 } as const;

/** Rows fetched per round trip from the snapshot's cursor, and sent per INSERT. */
const FETCH_ROWS = 2000;
const MAX_PARAMETERS = 30_000;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (table: string) => table.split('.').map(quote).join('.');

interface Column {
  name: string;
  /** Its type without modifiers: each value is cast from its text form to it. */
  type: string;
  /** A generated column is computed by the database: neither written nor loaded. */
  generated: boolean;
}

/** The tables of `schemas` (this code's own names) and their columns in order, from the catalog. */
export async function catalogTables(query: Query, schemas: string[]): Promise<Map<string, Column[]>> {
  const rows = await query<{ table: string; column: string; type: string; generated: boolean }>(
    `select n.nspname || '.' || c.relname as table, a.attname as column,
            format_type(a.atttypid, null) as type, a.attgenerated <> '' as generated
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        and n.nspname in (${schemas.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')})
      order by 1, a.attnum`,
  );
  const tables = new Map<string, Column[]>();
  for (const r of rows) {
    const columns = tables.get(r.table) ?? [];
    columns.push({ name: r.column, type: r.type, generated: r.generated });
    tables.set(r.table, columns);
  }
  return new Map([...tables].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The rows of `table` as a backup holds them: with `withSecrets` false, secret columns read NULL
 * and secret tables read no rows (secrets.ts). Stats and the written rows use the same projection,
 * so the manifest describes exactly what the file holds.
 */
function projection(table: string, columns: Column[], withSecrets: boolean): string {
  const hidden = withSecrets ? [] : (SECRET_COLUMNS[table] ?? []);
  const list = columns.map((c) => (hidden.includes(c.name) ? `NULL AS ${quote(c.name)}` : quote(c.name)));
  const none = !withSecrets && SECRET_TABLES.includes(table) ? ' WHERE false' : '';
  return `SELECT ${list.join(', ')} FROM ${qualified(table)}${none}`;
}

/**
 * Per-table row counts and checksums, the same on both engines for the same rows: each row's text
 * form (TimeZone UTC, set by the caller) hashed, the hashes sorted bytewise, hashed again.
 */
export async function tableStats(
  query: Query,
  { schemas = ['public'], withSecrets = true }: { schemas?: string[]; withSecrets?: boolean } = {},
): Promise<Record<string, TableStat>> {
  const stats: Record<string, TableStat> = {};
  for (const [table, columns] of await catalogTables(query, schemas)) {
    const [row] = await query<{ rows: number; checksum: string }>(
      `select count(*)::int as rows,
              md5(coalesce(string_agg(h, '' order by h collate "C"), '')) as checksum
         from (select md5(t::text) as h from (${projection(table, columns, withSecrets)}) t) r`,
    );
    stats[table] = { rows: row!.rows, checksum: row!.checksum };
  }
  return stats;
}

/**
 * Writes every table of `public` and its sequences, read through a cursor (inside the caller's
 * transaction, so in its snapshot) a few thousand rows at a time: memory stays flat however large
 * the school. Each row is one JSON array the database builds from the values' text forms.
 */
export async function* exportRows(
  query: Query,
  { withSecrets }: { withSecrets: boolean },
): AsyncGenerator<Buffer> {
  const line = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`);
  yield line(HEADER);
  const tables = await catalogTables(query, ['public']);
  for (const [table, all] of tables) {
    const columns = all.filter((c) => !c.generated);
    yield line({ table, columns: columns.map((c) => c.name) });
    const values = columns.map((c) => `${quote(c.name)}::text`).join(', ');
    await query(
      `DECLARE lectern_backup_rows NO SCROLL CURSOR FOR
         SELECT to_json(ARRAY[${values}])::text AS line FROM (${projection(table, columns, withSecrets)}) t`,
    );
    try {
      for (;;) {
        const rows = await query<{ line: string }>(`FETCH ${FETCH_ROWS} FROM lectern_backup_rows`);
        if (!rows.length) break;
        yield Buffer.from(`${rows.map((r) => r.line).join('\n')}\n`);
      }
    } finally {
      await query('CLOSE lectern_backup_rows');
    }
  }
  const sequences = await query<{ name: string; value: string | null }>(
    `select schemaname || '.' || sequencename as name, last_value::text as value
       from pg_sequences where schemaname = 'public' order by 1`,
  );
  for (const s of sequences) if (s.value !== null) yield line({ sequence: s.name, value: s.value });
  yield line({ end: { tables: tables.size } });
}

/** Splits a byte stream into lines (JSON never holds a raw newline). */
async function* lines(source: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of source) {
    const text = rest + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    const parts = text.split('\n');
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest) yield rest;
}

/**
 * Loads what `exportRows` wrote into the tables of `public`, on one connection inside the caller's
 * transaction. The tables must exist and be empty; each table and column the file names is checked
 * against the catalog, values go in as parameters. Foreign keys are dropped for the load and added
 * back after (which checks every row), and the tables' own triggers are off while they are filled:
 * the rows are as the backup had them, not as a trigger would make them.
 */
export async function loadRows(
  query: Query,
  source: AsyncIterable<Buffer | string>,
  id: string,
): Promise<void> {
  const tables = await catalogTables(query, ['public']);
  const foreignKeys = await query<{ table: string; name: string; definition: string }>(
    `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
       from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace order by 1, 2`,
  );
  for (const fk of foreignKeys) await query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${quote(fk.name)}`);
  for (const table of tables.keys()) await query(`ALTER TABLE ${qualified(table)} DISABLE TRIGGER USER`);

  let line = 0;
  const notData = (why: string) =>
    new BackupError(
      `Backup ${id}: its database dump is not table data (line ${line}: ${why}). Nothing was loaded.`,
    );
  let table: { name: string; columns: Column[]; batch: unknown[][] } | undefined;
  const flush = async () => {
    if (!table?.batch.length) return;
    const width = table.columns.length;
    // Each value is text cast to its column's type (the type as this schema has it, not as the file says).
    const tuples = table.batch.map(
      (_, row) =>
        `(${table!.columns.map((c, col) => `$${row * width + col + 1}::text::${c.type}`).join(', ')})`,
    );
    await query(
      `INSERT INTO ${qualified(table.name)} (${table.columns.map((c) => quote(c.name)).join(', ')}) OVERRIDING SYSTEM VALUE VALUES ${tuples.join(', ')}`,
      table.batch.flat(),
    );
    table.batch = [];
  };
  const loaded = new Set<string>();
  let ended = false;
  for await (const text of lines(source)) {
    line++;
    if (ended) throw notData('after the end');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw notData('not JSON');
    }
    if (line === 1) {
      if (JSON.stringify(value) !== JSON.stringify(HEADER)) throw notData('no rows header');
      continue;
    }
    if (Array.isArray(value)) {
      if (!table) throw notData('a row before any table');
      if (value.length !== table.columns.length || !value.every((v) => v === null || typeof v === 'string'))
        throw notData(`a row of ${table.name} that does not fit its columns`);
      table.batch.push(value);
      if ((table.batch.length + 1) * table.columns.length > MAX_PARAMETERS) await flush();
      continue;
    }
    await flush();
    const record = (value ?? {}) as {
      table?: unknown;
      columns?: unknown;
      sequence?: unknown;
      value?: unknown;
      end?: unknown;
    };
    if (typeof record.table === 'string') {
      const known = tables.get(record.table);
      if (!known || loaded.has(record.table))
        throw notData(`the table ${record.table} is not one of this schema's, or twice`);
      const names = record.columns;
      const writable = new Map(known.filter((c) => !c.generated).map((c) => [c.name, c]));
      if (
        !Array.isArray(names) ||
        !names.length ||
        new Set(names).size !== names.length ||
        !names.every((c) => typeof c === 'string' && writable.has(c))
      )
        throw notData(`columns of ${record.table} that are not its own`);
      loaded.add(record.table);
      table = { name: record.table, columns: names.map((c: string) => writable.get(c)!), batch: [] };
    } else if (typeof record.sequence === 'string' && typeof record.value === 'string') {
      const [known] = await query<{ ok: boolean }>(
        `select true as ok from pg_sequences where schemaname = 'public' and schemaname || '.' || sequencename = $1`,
        [record.sequence],
      );
      if (!known) throw notData(`the sequence ${record.sequence} is not one of this schema's`);
      await query(`select setval($1::text::regclass, $2::text::bigint, true)`, [
        qualified(record.sequence),
        record.value,
      ]);
    } else if (record.end && typeof record.end === 'object') {
      if ((record.end as { tables?: unknown }).tables !== loaded.size)
        throw notData('a table count that differs');
      ended = true;
    } else throw notData('neither a table, a row nor a sequence');
  }
  if (!ended) throw notData('cut short: no end line');

  for (const table of tables.keys()) await query(`ALTER TABLE ${qualified(table)} ENABLE TRIGGER USER`);
  for (const fk of foreignKeys)
    await query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${quote(fk.name)} ${fk.definition}`);
}
