import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { pgliteOptions, type Database, type Db } from '../db/client';
import { emptySchemas, inTransaction, loadSqlDump, migrateTo, pgliteQuery } from './database';
import { decryptChunks, type BackupKeys } from './encryption';
import { BackupError } from './errors';
import { objectKey, type Manifest, type TableStat } from './manifest';
import { exportRows, loadRows, tableStats } from './rows';
import type { BackupTarget } from './target';

/** How a backup's content differs from its manifest: tampering when the manifest is sealed, damage otherwise. */
const changed = (manifest: Manifest, keys: BackupKeys | undefined) =>
  keys ? `Backup ${manifest.id} has been tampered with` : `Backup ${manifest.id} is damaged`;

/** Reads the dump through once and checks its SHA-256 against the manifest, before any of it is used. */
export async function checkDump(
  target: BackupTarget,
  manifest: Manifest,
  keys: BackupKeys | undefined,
): Promise<void> {
  const key = objectKey(manifest.database.sha256);
  const hash = createHash('sha256');
  try {
    for await (const chunk of await target.readStream(key)) hash.update(chunk as Buffer);
  } catch {
    throw new BackupError(`${changed(manifest, keys)}: its database dump ${key} is missing.`);
  }
  if (hash.digest('hex') !== manifest.database.sha256)
    throw new BackupError(`${changed(manifest, keys)}: its database dump ${key} does not match its SHA-256.`);
}

/** Names the first table whose rows differ from the manifest's count or checksum. */
export function compareTables(
  manifest: Manifest,
  found: Record<string, TableStat>,
  only: (table: string) => boolean = () => true,
): void {
  for (const [table, expected] of Object.entries(manifest.tables).filter(([name]) => only(name))) {
    const actual = found[table];
    if (!actual)
      throw new BackupError(
        `Backup ${manifest.id}: the table ${table} is missing from the restored database.`,
      );
    if (actual.rows !== expected.rows)
      throw new BackupError(
        `Backup ${manifest.id}: ${table} has ${actual.rows} rows, the manifest says ${expected.rows}.`,
      );
    if (actual.checksum !== expected.checksum)
      throw new BackupError(
        `Backup ${manifest.id}: the rows of ${table} differ from the manifest's checksum.`,
      );
  }
}

const inPublic = (table: string) => table.startsWith('public.');

/** A throwaway embedded database with the extensions the migrations create (pg_trgm). */
const throwaway = () => new PGlite(pgliteOptions('16MB') as never);

/**
 * Hands `use` the backup's table data as rows.ts writes it, after checking the dump's hash:
 * format 2's file (decrypted piece by piece, each authenticated), or, for format 1's SQL dump, the
 * rows of a throwaway in-memory PGlite that ran it: that SQL reaches nothing else.
 */
async function withBackupRows<T>(
  target: BackupTarget,
  manifest: Manifest,
  keys: BackupKeys | undefined,
  use: (rows: AsyncIterable<Buffer>) => Promise<T>,
): Promise<T> {
  await checkDump(target, manifest, keys);
  const stream = () =>
    target.readStream(objectKey(manifest.database.sha256)) as Promise<AsyncIterable<Buffer>>;
  if (manifest.database.format === 'rows') {
    if (manifest.database.encrypted && !keys)
      throw new BackupError(`Backup ${manifest.id} is encrypted: set BACKUP_PASSPHRASE.`);
    const file = await stream();
    return use(manifest.database.encrypted ? decryptChunks(keys!, manifest.id, file) : file);
  }
  const sandbox = throwaway();
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await stream()) chunks.push(chunk);
    await loadSqlDump((sql) => sandbox.exec(sql), Buffer.concat(chunks).toString('utf8'));
    await sandbox.exec(`SET TimeZone = 'UTC'`);
    compareTables(manifest, await tableStats(pgliteQuery(sandbox), { schemas: ['public', 'drizzle'] }));
    return await sandbox.transaction(async (tx) => use(exportRows(pgliteQuery(tx), { withSecrets: true })));
  } finally {
    await sandbox.close();
  }
}

/**
 * Replaces `database`'s content with the backup's: both schemas emptied, the schema rebuilt by this
 * code's migrations up to the backup's last one, the rows loaded as data (rows.ts), every table
 * compared with the manifest. The caller made sure the install is empty or was backed up.
 */
export async function loadBackup(
  database: Pick<Database, 'db' | 'kind'>,
  target: BackupTarget,
  manifest: Manifest,
  keys: BackupKeys | undefined,
): Promise<{ tables: number; rows: number }> {
  return withBackupRows(target, manifest, keys, async (rows) => {
    await inTransaction(database.db, database.kind, { readOnly: false }, emptySchemas);
    await migrateTo(database, manifest.lastMigration, manifest.postDeploy);
    const found = await inTransaction(database.db, database.kind, { readOnly: false }, async (query) => {
      await loadRows(query, rows, manifest.id);
      return tableStats(query);
    });
    compareTables(manifest, found, inPublic);
    return {
      tables: Object.keys(found).length,
      rows: Object.values(found).reduce((sum, t) => sum + t.rows, 0),
    };
  });
}

/** Restores the backup's database into a throwaway in-memory PGlite and compares every table with the manifest. */
export async function checkDumpInMemory(
  target: BackupTarget,
  manifest: Manifest,
  keys: BackupKeys | undefined,
): Promise<{ tables: number; rows: number }> {
  const pg = throwaway();
  try {
    return await loadBackup({ db: drizzle(pg) as unknown as Db, kind: 'pglite' }, target, manifest, keys);
  } finally {
    await pg.close();
  }
}

/** Re-hashes every object of the backup; the first one missing or differing is named. */
export async function checkObjects(
  target: BackupTarget,
  manifest: Manifest,
  keys: BackupKeys | undefined,
  onProgress?: (done: number, total: number) => void,
): Promise<{ objects: number; bytes: number }> {
  const unique = [...new Map(manifest.media.map((m) => [m.sha256, m])).values()];
  let done = 0;
  let bytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const entry = unique[next++]!;
      const key = objectKey(entry.sha256);
      const hash = createHash('sha256');
      let stream;
      try {
        stream = await target.readStream(key);
      } catch {
        throw new BackupError(`${changed(manifest, keys)}: ${entry.key} (${key}) is missing.`);
      }
      for await (const chunk of stream) hash.update(chunk as Buffer);
      if (hash.digest('hex') !== entry.sha256)
        throw new BackupError(
          `${changed(manifest, keys)}: ${entry.key} (${key}) does not match its SHA-256.`,
        );
      bytes += entry.size;
      onProgress?.(++done, unique.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, unique.length) }, worker));
  return { objects: manifest.media.length, bytes };
}
