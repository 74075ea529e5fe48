import { readManifest } from './catalog';
import { checkDumpInMemory, checkObjects } from './checks';
import { openManifest } from './manifest';
import { openTarget } from './target';
import type { BackupContext, VerifyOptions, VerifyReport } from './types';

/**
 * Checks the manifest's seal first (with BACKUP_PASSPHRASE), then restores the database into a
 * throwaway in-memory PGlite, compares it with the manifest and re-hashes every object.
 */
export async function verifyBackup(
  ctx: Pick<BackupContext, 'config'>,
  id: string,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const target = openTarget(ctx.config.backup, options.target, ctx.config.s3);
  try {
    const { manifest, keys } = await openManifest(
      await readManifest(target, id),
      ctx.config.backup.passphrase,
      options.allowUnsealed,
    );
    options.onProgress?.({ phase: 'database', done: 0, total: 1 });
    const database = await checkDumpInMemory(target, manifest, keys);
    options.onProgress?.({ phase: 'database', done: 1, total: 1 });
    const media = await checkObjects(target, manifest, keys, (done, total) =>
      options.onProgress?.({ phase: 'media', done, total }),
    );
    return {
      id,
      ...database,
      objects: media.objects,
      bytes: media.bytes + manifest.database.size,
      sealed: keys !== undefined,
      videosWithoutKeys: manifest.videoSecrets.included ? 0 : manifest.videoSecrets.videos,
    };
  } finally {
    target.close();
  }
}
