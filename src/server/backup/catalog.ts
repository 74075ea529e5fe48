import { BackupError } from './errors';
import { BACKUP_ID, manifestKey, objectKey, parseManifest, type ReadManifest } from './manifest';
import { openTarget, type BackupTarget } from './target';
import type { BackupContext, BackupListing, PruneOptions, PruneResult } from './types';

/** Ids of the complete backups at a target (those with a manifest), newest first. */
export async function completeIds(target: BackupTarget): Promise<string[]> {
  const ids = (await target.list('backups/'))
    .map((o) => /^backups\/([^/]+)\/manifest\.json$/.exec(o.key)?.[1])
    .filter((id): id is string => id !== undefined && BACKUP_ID.test(id));
  return ids.sort().reverse();
}

/** A backup's manifest as stored, its seal not checked yet (openManifest checks it). */
export async function readManifest(target: BackupTarget, id: string): Promise<ReadManifest> {
  if (!BACKUP_ID.test(id)) throw new BackupError(`"${id}" is not a backup id (see backup:list).`);
  const bytes = await target.readBytes(manifestKey(id));
  if (!bytes) throw new BackupError(`No complete backup ${id} at ${target.label} (see backup:list).`);
  return parseManifest(bytes, id);
}

export async function latestManifest(target: BackupTarget): Promise<ReadManifest | undefined> {
  const [id] = await completeIds(target);
  return id ? readManifest(target, id) : undefined;
}

/** What listing shows, read from the manifest without checking its seal (that costs a scrypt per backup). */
const listingOf = ({ manifest: m, seal }: ReadManifest): BackupListing => ({
  id: m.id,
  createdAt: m.createdAt,
  bytes: m.database.size + m.media.reduce((sum, o) => sum + o.size, 0),
  objects: m.media.length,
  engine: m.engine,
  lecternVersion: m.lecternVersion,
  lastMigration: m.lastMigration,
  signingKeyIncluded: m.signingKey.sealed !== null,
  videosWithoutKeys: m.videoSecrets.included ? 0 : m.videoSecrets.videos,
  encrypted: seal !== null,
  excludedUploads: m.excludedUploads.length,
});

/** The complete backups at a target (default BACKUP_TARGET), newest first. */
export async function listBackups(
  ctx: Pick<BackupContext, 'config'>,
  target?: string,
): Promise<BackupListing[]> {
  const at = openTarget(ctx.config.backup, target, ctx.config.s3);
  try {
    const out: BackupListing[] = [];
    for (const id of await completeIds(at)) out.push(listingOf(await readManifest(at, id)));
    return out;
  } finally {
    at.close();
  }
}

/** Removes the complete backups beyond `keep` and every object no kept backup references. */
export async function pruneBackups(
  ctx: Pick<BackupContext, 'config'>,
  options: PruneOptions,
): Promise<PruneResult> {
  if (!Number.isInteger(options.keep) || options.keep < 1) throw new BackupError('Keep at least one backup.');
  const target = openTarget(ctx.config.backup, options.target, ctx.config.s3);
  try {
    const ids = await completeIds(target);
    const kept = ids.slice(0, options.keep);
    const removed = ids.slice(options.keep);
    const referenced = new Set<string>();
    // Objects written after the newest kept snapshot may belong to a backup running elsewhere now.
    let cutoff = 0;
    for (const id of kept) {
      const { manifest: m } = await readManifest(target, id);
      cutoff = Math.max(cutoff, Date.parse(m.createdAt));
      referenced.add(objectKey(m.database.sha256));
      for (const o of m.media) referenced.add(objectKey(o.sha256));
    }
    // The manifests first: a backup stops being listed before any of its objects goes.
    await target.delete(removed.map(manifestKey));
    const objects = await target.list('objects/');
    const doomed = objects.filter((o) => !referenced.has(o.key) && o.modifiedAt < cutoff);
    await target.delete(doomed.map((o) => o.key));
    return {
      removedBackups: removed,
      removedObjects: doomed.length,
      freedBytes: doomed.reduce((sum, o) => sum + o.size, 0),
    };
  } finally {
    target.close();
  }
}
