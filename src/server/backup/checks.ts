import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { loadDump, tableStats } from './database';
import { BackupError } from './errors';
import { objectKey, type Manifest, type TableStat } from './manifest';
import type { BackupTarget } from './target';

/** The dump of a backup, its hash checked. */
export async function readDump(target: BackupTarget, manifest: Manifest): Promise<string> {
  const key = objectKey(manifest.database.sha256);
  const bytes = await target.readBytes(key);
  if (!bytes) throw new BackupError(`Backup ${manifest.id} is damaged: its database dump ${key} is missing.`);
  if (createHash('sha256').update(bytes).digest('hex') !== manifest.database.sha256)
    throw new BackupError(
      `Backup ${manifest.id} is damaged: its database dump ${key} does not match its SHA-256.`,
    );
  return bytes.toString('utf8');
}

/** Names the first table whose rows differ from the manifest's count or checksum. */
export function compareTables(manifest: Manifest, found: Record<string, TableStat>): void {
  for (const [table, expected] of Object.entries(manifest.tables)) {
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

/** Restores the dump into a throwaway in-memory PGlite and compares every table with the manifest. */
export async function checkDumpInMemory(
  manifest: Manifest,
  dump: string,
): Promise<{ tables: number; rows: number }> {
  const pg = new PGlite({ postgresqlconf: ['shared_buffers = 16MB'] } as never);
  try {
    await loadDump((sql) => pg.exec(sql), dump);
    await pg.exec(`SET TimeZone = 'UTC'`);
    const found = await tableStats(async (sql, params) => (await pg.query(sql, params)).rows as never);
    compareTables(manifest, found);
    return {
      tables: Object.keys(found).length,
      rows: Object.values(found).reduce((sum, t) => sum + t.rows, 0),
    };
  } finally {
    await pg.close();
  }
}

/** Re-hashes every object of the backup; the first one missing or differing is named. */
export async function checkObjects(
  target: BackupTarget,
  manifest: Manifest,
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
        throw new BackupError(`Backup ${manifest.id} is damaged: ${entry.key} (${key}) is missing.`);
      }
      for await (const chunk of stream) hash.update(chunk as Buffer);
      if (hash.digest('hex') !== entry.sha256)
        throw new BackupError(
          `Backup ${manifest.id} is damaged: ${entry.key} (${key}) does not match its SHA-256.`,
        );
      bytes += entry.size;
      onProgress?.(++done, unique.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, unique.length) }, worker));
  return { objects: manifest.media.length, bytes };
}
