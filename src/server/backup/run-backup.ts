import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { StoreUnavailableError } from '../storage';
import { LocalStore } from '../storage/local-store';
import { latestManifest } from './catalog';
import { inTransaction } from './database';
import { BackupKeys, encryptChunks } from './encryption';
import { BackupError, BackupTargetUnavailableError } from './errors';
import {
  FORMAT_VERSION,
  manifestKey,
  newBackupId,
  objectKey,
  openManifest,
  writeManifest,
  type Manifest,
  type MediaEntry,
} from './manifest';
import {
  readReferences,
  resolveObjects,
  stampOf,
  type MediaReferences,
  type SourceObject,
} from './media-set';
import { exportRows, tableStats } from './rows';
import { keyFingerprint, sealSigningKey, VIDEOS_WITH_SECRETS_SQL } from './secrets';
import { openTarget, type BackupTarget } from './target';
import type { BackupContext, BackupOptions, BackupProgress, BackupSummary } from './types';
import { lastMigrationOf, lecternVersion, postDeployOf } from './versions';

/** Objects copied at once: enough to keep a bucket busy, few enough to keep memory flat. */
const CONCURRENCY = 8;

/** One backup at a time per process and target: two would race on the same objects for nothing. */
const running = new Map<string, Promise<BackupSummary>>();

/**
 * Takes one backup: the database read in one snapshot (dump, per-table counts and checksums, the
 * media it references), then those objects stored by SHA-256 (only the ones the target lacks are
 * copied), then the manifest, last: a backup stopped before it is never listed.
 */
export async function runBackup(ctx: BackupContext, options: BackupOptions = {}): Promise<BackupSummary> {
  const label = options.target ?? ctx.config.backup.target;
  const already = running.get(label);
  if (already) return already;
  const promise = backup(ctx, options).finally(() => running.delete(label));
  running.set(label, promise);
  return promise;
}

async function backup(ctx: BackupContext, options: BackupOptions): Promise<BackupSummary> {
  const started = new Date();
  const target = openTarget(ctx.config.backup, options.target, ctx.config.s3);
  const passphrase = ctx.config.backup.passphrase;
  let bytes = 0;
  const report = (phase: BackupProgress['phase'], done: number, total: number) =>
    options.onProgress?.({ phase, done, total, bytes });
  let media: Promise<CopiedMedia> | undefined;
  let keys: BackupKeys | undefined;
  try {
    await target.check();
    // scrypt (half a second, off the event loop) and the target's listing run beside the snapshot
    // and the copies; the dump waits for the keys, the copies for what the target has.
    const keying = passphrase ? BackupKeys.create(passphrase) : Promise.resolve(undefined);
    const known = Promise.all([
      target.list('objects/').then((objects) => new Set(objects.map((o) => o.key))),
      // One scrypt at a time: each holds 128 MiB while it runs.
      keying.then(() => previousManifest(target, passphrase)),
    ]);
    keying.catch(() => {});
    known.catch(() => {});
    const withSecrets = passphrase !== undefined;
    report('database', 0, 1);
    const snapshot = await inTransaction(ctx.db, ctx.dbKind, { readOnly: true }, async (query) => {
      const [row] = await query<{ version: string }>(`select current_setting('server_version') as version`);
      const references = await readReferences(query);
      // The media the snapshot references are copied while the rows are written.
      media = copyMedia(ctx, target, references, known, {
        signal: options.signal,
        wrote: (n) => (bytes += n),
        step: (done, total) => report('media', done, total),
      });
      media.catch(() => {}); // awaited below; a failure must not go unhandled while the dump runs
      const facts = {
        serverVersion: row!.version,
        references,
        tables: await tableStats(query, { withSecrets }),
        lastMigration: await lastMigrationOf(query),
        postDeploy: await postDeployOf(query),
        videosWithSecrets: (await query<{ n: number }>(VIDEOS_WITH_SECRETS_SQL))[0]!.n,
      };
      options.signal?.throwIfAborted();
      const rows = exportRows(query, { withSecrets });
      keys = await keying;
      const dump = await target.writeContent(keys ? encryptChunks(keys, rows) : rows);
      bytes += dump.size;
      return { ...facts, dump };
    });
    const snapshotAt = new Date();
    const copied = await media!;
    options.signal?.throwIfAborted();

    report('manifest', 0, 1);
    const finished = new Date();
    const manifest: Manifest = {
      formatVersion: FORMAT_VERSION,
      id: newBackupId(snapshotAt),
      lecternVersion: lecternVersion(),
      lastMigration: snapshot.lastMigration,
      postDeploy: snapshot.postDeploy,
      engine: ctx.dbKind,
      serverVersion: snapshot.serverVersion,
      createdAt: snapshotAt.toISOString(),
      finishedAt: finished.toISOString(),
      database: {
        sha256: snapshot.dump.sha256,
        size: snapshot.dump.size,
        format: 'rows',
        encrypted: withSecrets,
      },
      tables: snapshot.tables,
      media: copied.media,
      excludedUploads: snapshot.references.uploads,
      signingKey: {
        fingerprint: keyFingerprint(ctx.signingKey),
        sealed: keys ? sealSigningKey(ctx.signingKey, keys) : null,
      },
      videoSecrets: { included: withSecrets, videos: snapshot.videosWithSecrets },
    };
    const manifestBytes = writeManifest(manifest, keys);
    await target.writeBytes(manifestKey(manifest.id), manifestBytes);
    bytes += manifestBytes.length;
    report('manifest', 1, 1);
    return {
      id: manifest.id,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: Date.now() - started.getTime(),
      bytes,
      totalBytes: manifest.database.size + copied.media.reduce((sum, m) => sum + m.size, 0),
      objectsTotal: copied.media.length,
      objectsCopied: copied.copied,
      excludedUploads: manifest.excludedUploads,
      target: target.label,
      signingKeyIncluded: withSecrets,
      videosWithoutKeys: withSecrets ? 0 : manifest.videoSecrets.videos,
    };
  } catch (error) {
    if (error instanceof StoreUnavailableError)
      throw new BackupTargetUnavailableError(`The media store cannot be read: ${error.reason}`);
    throw error;
  } finally {
    // A failed dump stops here only once the copies under way have ended.
    await media?.catch(() => {});
    target.close();
  }
}

/**
 * The newest backup's manifest, whose stamps spare re-reading unchanged objects. With a
 * passphrase it is trusted only once its seal checks out: a changed manifest could otherwise name
 * planted content for an object, and the new backup would seal it.
 */
async function previousManifest(target: BackupTarget, passphrase: string | undefined) {
  try {
    const read = await latestManifest(target);
    if (!read) return undefined;
    if (!passphrase) return read.manifest;
    if (!read.seal) return undefined;
    return (await openManifest(read, passphrase)).manifest;
  } catch (error) {
    if (error instanceof BackupError && !(error instanceof BackupTargetUnavailableError)) return undefined;
    throw error;
  }
}

interface CopiedMedia {
  media: MediaEntry[];
  copied: number;
}

/** Copies the objects the references name, CONCURRENCY at a time; unchanged ones are not read again. */
async function copyMedia(
  ctx: BackupContext,
  target: BackupTarget,
  references: MediaReferences,
  knowing: Promise<[present: Set<string>, previous: Manifest | undefined]>,
  {
    signal,
    wrote,
    step,
  }: { signal?: AbortSignal; wrote: (bytes: number) => void; step: (done: number, total: number) => void },
): Promise<CopiedMedia> {
  const [objects, [present, previous]] = await Promise.all([resolveObjects(ctx.media, references), knowing]);
  const known = new Map((previous?.media ?? []).map((m) => [`${m.store}:${m.key}:${m.stamp}`, m]));
  const media: MediaEntry[] = new Array(objects.length);
  let done = 0;
  let copied = 0;
  let next = 0;
  const worker = async () => {
    while (next < objects.length) {
      const index = next++;
      signal?.throwIfAborted();
      const source = objects[index]!;
      const stamp = stampOf(source);
      const seen = known.get(`${source.store.kind}:${source.object.key}:${stamp}`);
      let sha256: string;
      if (seen && present.has(objectKey(seen.sha256))) {
        sha256 = seen.sha256;
      } else {
        const stored = await storeObject(target, source, present, ctx.config.s3?.bucket).catch(
          (error: unknown) => {
            // A source is deleted once its video is packaged: gone now, it is left out like one
            // the listing did not find. Any other object gone means the school changed under us.
            if (!(error instanceof ObjectGoneError)) throw error;
            if (source.object.key.startsWith('sources/')) return undefined;
            throw new StoreUnavailableError(error.message);
          },
        );
        if (!stored) {
          step(++done, objects.length);
          continue;
        }
        sha256 = stored.sha256;
        if (stored.written) {
          copied++;
          wrote(source.object.size);
        }
      }
      media[index] = {
        key: source.object.key,
        store: source.store.kind,
        size: source.object.size,
        sha256,
        stamp,
      };
      step(++done, objects.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, objects.length) }, worker));
  return { media: media.filter(Boolean), copied };
}

/** An object listed a moment ago is no longer in its store. */
class ObjectGoneError extends Error {}

/** Stores one object by its content; answers its SHA-256 and whether the target lacked it. */
async function storeObject(
  target: BackupTarget,
  { store, object }: SourceObject,
  present: Set<string>,
  mediaBucket: string | undefined,
): Promise<{ sha256: string; written: boolean }> {
  const open = async () => {
    const read = await store.read(object.key);
    if (!read?.body) throw new ObjectGoneError(`${object.key} disappeared while the backup ran`);
    return read.body;
  };
  if (target.copyFile && store instanceof LocalStore) {
    // A file to a folder: read, hashed and written on a worker thread, beside the dump.
    const file = store.pathOf(object.key);
    const copied = await target.copyFile(file).catch((error: unknown) => {
      if (!existsSync(file)) throw new ObjectGoneError(`${object.key} disappeared while the backup ran`);
      throw error;
    });
    present.add(objectKey(copied.sha256));
    return copied;
  }
  if (target.putContent) {
    const stored = await target.putContent(await open(), object.size);
    present.add(objectKey(stored.sha256));
    return stored;
  }
  // A bucket: the key is the content's hash, so the object is read once to hash it, then copied
  // inside the service when it can be, else uploaded.
  const hash = createHash('sha256');
  for await (const chunk of await open()) hash.update(chunk as Buffer);
  const sha256 = hash.digest('hex');
  const key = objectKey(sha256);
  if (present.has(key)) return { sha256, written: false };
  if (store.kind === 's3' && target.serverSideCopy && mediaBucket) {
    await target.serverSideCopy(mediaBucket, object.key, key);
  } else {
    await target.writeStream(key, Readable.from(await open()), object.size);
  }
  present.add(key);
  return { sha256, written: true };
}
