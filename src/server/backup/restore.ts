import { createWriteStream } from 'node:fs';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { createMediaStores, type MediaStore, type MediaStores } from '../media/store';
import { LocalStore } from '../media/store/local-store';
import { loadSigningKey } from '../signing-key';
import { readManifest } from './catalog';
import { checkObjects, compareTables, readDump } from './checks';
import { loadDump, rawClient, tableStats } from './database';
import { BackupError } from './errors';
import { FORMAT_VERSION, objectKey, type Manifest } from './manifest';
import { runBackup } from './run-backup';
import { keyFingerprint, matchSigningKey, openSigningKey } from './secrets';
import { openTarget, type BackupTarget } from './target';
import type { RestoreOptions, RestoreReport } from './types';
import { knowsMigration } from './versions';

/** Objects up to this size are held in memory on their way into the store; larger ones go through a file. */
const IN_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * Restores backup `id` into an empty install (or over one, with `replace`, after backing it up).
 * Everything is checked before anything is written: the code knows the backup's migrations, the
 * signing key opens, the dump and every object match their SHA-256. Then the media, then the
 * database (its tables compared with the manifest), then the migrations this code adds.
 */
export async function restoreBackup(
  config: Readonly<Config>,
  id: string,
  options: RestoreOptions = {},
): Promise<RestoreReport> {
  const say = options.onLine ?? (() => {});
  const source = openTarget(config.backup, options.from, config.s3);
  try {
    const manifest = await readManifest(source, id);
    if (manifest.formatVersion > FORMAT_VERSION || !knowsMigration(manifest.lastMigration))
      throw new BackupError(
        `Backup ${id} was made by a newer Lectern (${manifest.lecternVersion}, migration ${manifest.lastMigration}): upgrade this install first.`,
      );
    const key = await signingKeyOf(manifest, config, options);
    say(`Checking backup ${id} (${manifest.media.length} objects)…`);
    const dump = await readDump(source, manifest);
    await checkObjects(source, manifest);

    const target: Readonly<Config> = {
      ...config,
      databaseUrl: options.databaseUrl ?? config.databaseUrl,
      mediaStore: options.mediaStore ?? config.mediaStore,
    };
    if (target.mediaStore === 's3' && !target.s3)
      throw new BackupError('--media-store s3 needs the bucket settings (S3_BUCKET and its credentials).');
    const stores = createMediaStores(target);
    let database: Database | undefined;
    try {
      database = await openDatabase({ url: target.databaseUrl, dataDir: target.dataDir });
      const contents = await installContents(database, stores.current);
      let replacedBackupId: string | undefined;
      if (contents) {
        if (!options.replace)
          throw new BackupError(
            `This install is not empty (${contents}): restore into a new one, or add --replace (which backs up what it replaces first).`,
          );
        say(`Backing up what --replace replaces (${contents})…`);
        replacedBackupId = (
          await runBackup(
            {
              config: target,
              db: database.db,
              dbKind: database.kind,
              media: stores,
              signingKey: loadSigningKey(target.signingKey, target.dataDir),
            },
            { target: options.from },
          )
        ).id;
        say(`Backed up as ${replacedBackupId}.`);
      }

      say(`Restoring ${manifest.media.length} media objects to the ${stores.current.kind} store…`);
      const bytes = await restoreMedia(source, manifest, stores);
      say(`Restoring the database (${manifest.engine} backup into ${database.kind})…`);
      const counts = await restoreDatabase(database, manifest, dump, stores.current.kind);
      await database.close();
      database = undefined;
      // Opening runs the migrations this code has and the backup had not.
      database = await openDatabase({ url: target.databaseUrl, dataDir: target.dataDir });
      const signingKey = await installSigningKey(key, target);
      say(
        `Restored backup ${id}: ${counts.tables} tables (${counts.rows} rows), ${manifest.media.length} objects (${(bytes / 1e6).toFixed(1)} MB), signing key ${signingKey === 'configured' ? 'from SIGNING_KEY' : 'written to DATA_DIR/signing.key'}.`,
      );
      return {
        id,
        engine: database.kind,
        ...counts,
        objects: manifest.media.length,
        bytes,
        replacedBackupId,
        signingKey: signingKey === 'configured' ? 'configured' : key.origin,
      };
    } finally {
      await database?.close();
      stores.close();
    }
  } finally {
    source.close();
  }
}

/** The backup's signing key: decrypted with BACKUP_PASSPHRASE, or given (flag, prompt, SIGNING_KEY) and checked. */
async function signingKeyOf(
  manifest: Manifest,
  config: Readonly<Config>,
  options: RestoreOptions,
): Promise<{ key: Buffer; origin: 'from-backup' | 'given' }> {
  const { sealed, fingerprint } = manifest.signingKey;
  if (sealed && config.backup.passphrase)
    return { key: await openSigningKey(sealed, config.backup.passphrase), origin: 'from-backup' };
  const candidates = [options.signingKey, config.signingKey].filter((k): k is string => Boolean(k));
  for (const given of candidates) {
    const key = matchSigningKey(given, fingerprint);
    if (key) return { key, origin: 'given' };
  }
  if (options.signingKey)
    throw new BackupError(
      'That is not the signing key of this backup (compare SIGNING_KEY or DATA_DIR/signing.key of the old install).',
    );
  const why = sealed
    ? 'the backup holds the signing key encrypted: set BACKUP_PASSPHRASE'
    : 'the backup was taken without BACKUP_PASSPHRASE, so its signing key is not inside';
  if (options.askSigningKey) {
    const key = matchSigningKey(await options.askSigningKey(), fingerprint);
    if (key) return { key, origin: 'given' };
    throw new BackupError('That is not the signing key of this backup. Nothing was restored.');
  }
  throw new BackupError(`Give the signing key (--signing-key): ${why}. Nothing was restored.`);
}

/** Writes the key where the install reads it, unless SIGNING_KEY configures one. */
async function installSigningKey(
  key: { key: Buffer },
  config: Readonly<Config>,
): Promise<'configured' | 'written'> {
  if (config.signingKey) {
    if (keyFingerprint(Buffer.from(config.signingKey, 'utf8')) !== keyFingerprint(key.key))
      throw new BackupError(
        "SIGNING_KEY differs from the backup's key: playback links and codes would break. Unset it (the key is now in DATA_DIR/signing.key) or set it to the old value.",
      );
    return 'configured';
  }
  await mkdir(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'signing.key');
  await writeFile(file, key.key.toString('hex'), { mode: 0o600 });
  await chmod(file, 0o600);
  return 'written';
}

/** Empty: no account, course or video, and no media. Answers what is there otherwise. */
async function installContents(database: Database, store: MediaStore): Promise<string | undefined> {
  const { rows } = await database.db.execute<{ users: number; courses: number; videos: number }>(
    sql`select (select count(*) from users)::int as users, (select count(*) from courses)::int as courses,
               (select count(*) from videos)::int as videos`,
  );
  const { users, courses, videos } = rows[0]!;
  const media = (await store.listChildren('videos/')).length;
  const parts = [
    users && `${users} accounts`,
    courses && `${courses} courses`,
    videos && `${videos} videos`,
    media && `${media} video folders in the ${store.kind} store`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : undefined;
}

async function restoreMedia(source: BackupTarget, manifest: Manifest, stores: MediaStores): Promise<number> {
  const store = stores.current;
  await mkdir(stores.scratch.root, { recursive: true });
  const temp = await mkdtemp(path.join(stores.scratch.root, 'restore-'));
  let bytes = 0;
  let next = 0;
  try {
    const worker = async () => {
      while (next < manifest.media.length) {
        const entry = manifest.media[next++]!;
        const body = await source.readStream(objectKey(entry.sha256));
        if (store instanceof LocalStore) {
          // Written aside and renamed; flushed all at once below instead of one fsync per file.
          const file = store.pathOf(entry.key);
          await mkdir(path.dirname(file), { recursive: true });
          await pipeline(body, createWriteStream(`${file}.restore.tmp`));
          await rename(`${file}.restore.tmp`, file);
        } else if (entry.size <= IN_MEMORY_BYTES) {
          const chunks: Buffer[] = [];
          for await (const chunk of body) chunks.push(chunk as Buffer);
          await store.put(entry.key, Buffer.concat(chunks));
        } else {
          const file = path.join(temp, entry.sha256);
          await pipeline(body, createWriteStream(file));
          await store.put(entry.key, { file });
          await rm(file, { force: true });
        }
        bytes += entry.size;
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, manifest.media.length) }, worker));
    // Every restored file on disk before the database that points at them is written.
    if (store instanceof LocalStore) await promisify(execFile)('sync', ['-f', store.root]);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return bytes;
}

/** Loads the dump on one connection, compares every table with the manifest, then points videos at their new store. */
async function restoreDatabase(
  database: Database,
  manifest: Manifest,
  dump: string,
  storeKind: 'local' | 's3',
): Promise<{ tables: number; rows: number }> {
  const client = rawClient(database.db);
  const run = async <T>(work: (exec: (sql: string) => Promise<{ rows: unknown[] }>) => Promise<T>) => {
    if (database.kind === 'pglite') {
      const pglite = client as PGlite;
      return work(async (sql) => {
        const results = await pglite.exec(sql);
        return { rows: results.at(-1)?.rows ?? [] };
      });
    }
    const conn = await (client as pg.Pool).connect();
    try {
      return await work(async (sql) => {
        const result = (await conn.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
        return { rows: Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows };
      });
    } finally {
      conn.release(true);
    }
  };
  return run(async (exec) => {
    await loadDump(exec, dump);
    await exec(`SET TimeZone = 'UTC'`);
    const found = await tableStats(async (sql) => (await exec(sql)).rows as never);
    compareTables(manifest, found);
    await exec(`UPDATE public.videos SET store = '${storeKind}' WHERE store <> '${storeKind}'`);
    return {
      tables: Object.keys(found).length,
      rows: Object.values(found).reduce((sum, t) => sum + t.rows, 0),
    };
  });
}
