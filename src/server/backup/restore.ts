import { createWriteStream } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { logSecurityEvent, recordSecurityEvent } from '../audit/security-events';
import type { Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { createMediaStores, type MediaStore, type MediaStores } from '../storage';
import { LocalStore } from '../storage/local-store';
import { loadSigningKey } from '../signing-key';
import { storedSecretsState, wrapStoredSecrets } from '../videos/video-secrets';
import { readManifest } from './catalog';
import { checkDump, checkObjects, loadBackup } from './checks';
import type { BackupKeys } from './encryption';
import { BackupError } from './errors';
import { FORMAT_VERSION, objectKey, openManifest, unsealedBecause, type Manifest } from './manifest';
import { runBackup } from './run-backup';
import { videoKeysUnreadable, videosNeedRekey } from '../../contract/backups';
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
  // JSON lines by default; the CLI passes its own logger (pretty on a terminal).
  const logger = options.logger ?? (pino({ level: config.logLevel }) as unknown as FastifyBaseLogger);
  const event = {
    backupId: id,
    from: options.from ?? config.backup.target,
    by: options.by ?? 'cli',
    osUser: osUser(),
    host: hostname(),
    replace: options.replace === true,
    allowUnsealed: options.allowUnsealed === true,
  };
  const reached = { database: false };
  try {
    const report = await restore(config, id, options, reached);
    const details = {
      ...event,
      outcome: 'restored',
      engine: report.engine,
      replacedBackupId: report.replacedBackupId ?? null,
      signingKey: report.signingKey,
      videosWithoutKeys: report.videosWithoutKeys,
      secretsWrapped: report.secretsWrapped,
    };
    await recordRestoreEvent(config, options, logger, 'backup.restored', details);
    return report;
  } catch (error) {
    const details = { ...event, outcome: 'failed', reason: oneLine(error) };
    // Into the install only when the restore got as far as its database: a refused restore into a
    // fresh DATA_DIR leaves it empty (nothing written), an attempt over a running school is kept.
    await recordRestoreEvent(config, options, logger, 'backup.restore-failed', details, reached.database);
    throw error;
  }
}

const osUser = () => {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
};

/** The failure's first line, a URL's password masked (a database error may quote its URL). */
const oneLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error))
    .split('\n')[0]!
    .replace(/\/\/([^/\s:@]+):[^@\s]*@/g, '//$1:•••@')
    .slice(0, 500);

/**
 * A restore as a security event: one JSON log line (`security event`, like sign-in failures) and an
 * audit row in the database restored into. Names the backup, its source, who ran it and the
 * outcome; never a passphrase or key (an error's text is the restore's own sentence).
 */
async function recordRestoreEvent(
  config: Readonly<Config>,
  options: RestoreOptions,
  logger: FastifyBaseLogger,
  action: 'backup.restored' | 'backup.restore-failed',
  details: Record<string, unknown>,
  intoDatabase = true,
): Promise<void> {
  const url = options.databaseUrl ?? config.databaseUrl;
  let database: Database | undefined;
  try {
    if (!intoDatabase) {
      logSecurityEvent(logger, { action, userId: null, details });
      return;
    }
    database = await openDatabase({ url, dataDir: config.dataDir, migrate: false });
    const { rows } = await database.db.execute<{ present: boolean }>(
      sql`select to_regclass('public.audit_events') is not null as present`,
    );
    if (rows[0]?.present)
      await recordSecurityEvent({ db: database.db, logger }, new Date(), { action, userId: null, details });
    else logSecurityEvent(logger, { action, userId: null, details });
  } catch (error) {
    logSecurityEvent(logger, { action, userId: null, details });
    logger.error({ err: error, backupId: details.backupId }, 'could not write the restore to the audit log');
  } finally {
    await database?.close();
  }
}

async function restore(
  config: Readonly<Config>,
  id: string,
  options: RestoreOptions,
  reached: { database: boolean },
): Promise<RestoreReport> {
  const say = options.onLine ?? (() => {});
  const source = openTarget(config.backup, options.from, config.s3);
  try {
    // The seal first: nothing else of the backup is read before it checks out.
    const { manifest, keys } = await openManifest(
      await readManifest(source, id),
      config.backup.passphrase,
      options.allowUnsealed,
    );
    if (manifest.formatVersion > FORMAT_VERSION || !knowsMigration(manifest.lastMigration))
      throw new BackupError(
        `Backup ${id} was made by a newer Lectern (${manifest.lecternVersion}, migration ${manifest.lastMigration}): upgrade this install first.`,
      );
    if (!keys && config.backup.passphrase)
      say(
        `Backup ${id} is not sealed (${unsealedBecause(manifest)}): nothing proves Lectern wrote it as it is (restored under --allow-unsealed).`,
      );
    const key = await signingKeyOf(manifest, keys, config, options);
    say(`Checking backup ${id} (${manifest.media.length} objects)…`);
    await checkDump(source, manifest, keys);
    await checkObjects(source, manifest, keys);

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
      reached.database = true;
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
      const counts = await loadBackup(database, source, manifest, keys);
      await pointVideosAt(database, stores.current.kind);
      await database.close();
      database = undefined;
      // Opening runs the migrations this code has and the backup had not.
      database = await openDatabase({ url: target.databaseUrl, dataDir: target.dataDir });
      const signingKey = await installSigningKey(key, target);
      const videosWithoutKeys = manifest.videoSecrets.included ? 0 : manifest.videoSecrets.videos;
      if (videosWithoutKeys) say(videosNeedRekey(videosWithoutKeys));
      // A backup from before video keys were wrapped holds them plain: wrapped now, under the key
      // just installed. Keys that do not open with it are named (the doctor says the same).
      const secrets = { db: database.db, signingKey: key.key };
      const secretsWrapped = await wrapStoredSecrets(secrets);
      if (secretsWrapped)
        say(`Wrapped ${secretsWrapped} video key(s) and secret(s) stored plain under the signing key.`);
      const { videosUnreadable } = await storedSecretsState(secrets);
      if (videosUnreadable) say(videoKeysUnreadable(videosUnreadable));
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
        videosWithoutKeys,
        secretsWrapped,
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
  keys: BackupKeys | undefined,
  config: Readonly<Config>,
  options: RestoreOptions,
): Promise<{ key: Buffer; origin: 'from-backup' | 'given' }> {
  const { sealed, fingerprint } = manifest.signingKey;
  if (sealed && (keys || config.backup.passphrase)) {
    const key = await openSigningKey(sealed, keys ? { keys } : { passphrase: config.backup.passphrase! });
    if (keyFingerprint(key) !== fingerprint)
      throw new BackupError(
        `Backup ${manifest.id}: its signing key does not match its fingerprint. Nothing was restored.`,
      );
    return { key, origin: 'from-backup' };
  }
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

/** The restored videos' files are in `storeKind` now, whichever store they were in before. */
async function pointVideosAt(database: Database, storeKind: 'local' | 's3'): Promise<void> {
  await database.db.execute(sql`UPDATE videos SET store = ${storeKind} WHERE store <> ${storeKind}`);
}
