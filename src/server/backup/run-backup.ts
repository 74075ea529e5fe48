import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { StoreUnavailableError } from '../media/store';
import { latestManifest } from './catalog';
import { snapshotDatabase, tableStats } from './database';
import { BackupTargetUnavailableError } from './errors';
import {
  FORMAT_VERSION,
  manifestKey,
  newBackupId,
  objectKey,
  type Manifest,
  type MediaEntry,
} from './manifest';
import { readReferences, resolveObjects, stampOf, type SourceObject } from './media-set';
import { keyFingerprint, sealSigningKey } from './secrets';
import { openTarget, type BackupTarget } from './target';
import type { BackupContext, BackupOptions, BackupProgress, BackupSummary } from './types';
import { lastMigrationOf, lecternVersion } from './versions';

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
  let bytes = 0;
  const report = (phase: BackupProgress['phase'], done: number, total: number) =>
    options.onProgress?.({ phase, done, total, bytes });
  try {
    await target.check();
    report('database', 0, 1);
    const snapshot = await snapshotDatabase(ctx.db, ctx.dbKind, ctx.config.databaseUrl, async (query) => ({
      tables: await tableStats(query),
      references: await readReferences(query),
      lastMigration: await lastMigrationOf(query),
    }));
    const snapshotAt = new Date();
    options.signal?.throwIfAborted();
    const dump = Buffer.from(snapshot.dump, 'utf8');
    const dumpSha = createHash('sha256').update(dump).digest('hex');
    const present = new Set((await target.list('objects/')).map((o) => o.key));
    if (!present.has(objectKey(dumpSha))) {
      await target.writeBytes(objectKey(dumpSha), dump);
      present.add(objectKey(dumpSha));
      bytes += dump.length;
    }
    report('database', 1, 1);

    const objects = await resolveObjects(ctx.media, snapshot.result.references);
    const previous = await latestManifest(target);
    const known = new Map((previous?.media ?? []).map((m) => [`${m.store}:${m.key}:${m.stamp}`, m]));
    const media: MediaEntry[] = new Array(objects.length);
    let done = 0;
    let copied = 0;
    report('media', 0, objects.length);
    let next = 0;
    const worker = async () => {
      while (next < objects.length) {
        const index = next++;
        options.signal?.throwIfAborted();
        const source = objects[index]!;
        const stamp = stampOf(source);
        const seen = known.get(`${source.store.kind}:${source.object.key}:${stamp}`);
        let sha256: string;
        if (seen && present.has(objectKey(seen.sha256))) {
          sha256 = seen.sha256;
        } else {
          const stored = await storeObject(target, source, present, ctx.config.s3?.bucket);
          sha256 = stored.sha256;
          if (stored.written) {
            copied++;
            bytes += source.object.size;
          }
        }
        media[index] = {
          key: source.object.key,
          store: source.store.kind,
          size: source.object.size,
          sha256,
          stamp,
        };
        report('media', ++done, objects.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, objects.length) }, worker));

    report('manifest', 0, 1);
    const passphrase = ctx.config.backup.passphrase;
    const finished = new Date();
    const manifest: Manifest = {
      formatVersion: FORMAT_VERSION,
      id: newBackupId(snapshotAt),
      lecternVersion: lecternVersion(),
      lastMigration: snapshot.result.lastMigration,
      engine: ctx.dbKind,
      serverVersion: snapshot.serverVersion,
      createdAt: snapshotAt.toISOString(),
      finishedAt: finished.toISOString(),
      database: { sha256: dumpSha, size: dump.length },
      tables: snapshot.result.tables,
      media,
      excludedUploads: snapshot.result.references.uploads,
      signingKey: {
        fingerprint: keyFingerprint(ctx.signingKey),
        sealed: passphrase ? await sealSigningKey(ctx.signingKey, passphrase) : null,
      },
    };
    options.signal?.throwIfAborted();
    const manifestBytes = Buffer.from(JSON.stringify(manifest));
    await target.writeBytes(manifestKey(manifest.id), manifestBytes);
    bytes += manifestBytes.length;
    report('manifest', 1, 1);
    return {
      id: manifest.id,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: Date.now() - started.getTime(),
      bytes,
      totalBytes: dump.length + media.reduce((sum, m) => sum + m.size, 0),
      objectsTotal: media.length,
      objectsCopied: copied,
      excludedUploads: manifest.excludedUploads,
      target: target.label,
      signingKeyIncluded: manifest.signingKey.sealed !== null,
    };
  } catch (error) {
    if (error instanceof StoreUnavailableError)
      throw new BackupTargetUnavailableError(`The media store cannot be read: ${error.reason}`);
    throw error;
  } finally {
    target.close();
  }
}

/** Stores one object by its content; answers its SHA-256 and whether the target lacked it. */
async function storeObject(
  target: BackupTarget,
  { store, object }: SourceObject,
  present: Set<string>,
  mediaBucket: string | undefined,
): Promise<{ sha256: string; written: boolean }> {
  const open = async () => {
    const read = await store.read(object.key);
    if (!read?.body) throw new StoreUnavailableError(`${object.key} disappeared while the backup ran`);
    return read.body;
  };
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
