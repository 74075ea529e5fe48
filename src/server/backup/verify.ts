import { readManifest } from './catalog';
import { checkDumpInMemory, checkObjects, readDump } from './checks';
import { openTarget } from './target';
import type { BackupContext, VerifyOptions, VerifyReport } from './types';

/** Restores the dump into a throwaway in-memory PGlite, compares it with the manifest and re-hashes every object. */
export async function verifyBackup(
  ctx: Pick<BackupContext, 'config'>,
  id: string,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const target = openTarget(ctx.config.backup, options.target, ctx.config.s3);
  try {
    const manifest = await readManifest(target, id);
    options.onProgress?.({ phase: 'database', done: 0, total: 1 });
    const database = await checkDumpInMemory(manifest, await readDump(target, manifest));
    options.onProgress?.({ phase: 'database', done: 1, total: 1 });
    const media = await checkObjects(target, manifest, (done, total) =>
      options.onProgress?.({ phase: 'media', done, total }),
    );
    return { id, ...database, objects: media.objects, bytes: media.bytes + manifest.database.size };
  } finally {
    target.close();
  }
}
