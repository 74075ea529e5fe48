import { createInterface } from 'node:readline/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { listBackups } from './catalog';
import { BackupError } from './errors';
import { restoreBackup } from './restore';
import { videosNeedRekey } from '../../contract/backups';
import type { BackupProgress, BackupSummary } from './types';
import { verifyBackup } from './verify';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Progress on stderr, at most one line a second per phase (a terminal or a log both stay readable). */
export function progressPrinter(): (p: BackupProgress) => void {
  let last = 0;
  let phase = '';
  return (p) => {
    const now = Date.now();
    if (p.phase === phase && now - last < 1000 && p.done !== p.total) return;
    phase = p.phase;
    last = now;
    console.error(`  ${p.phase}: ${p.done}/${p.total} (${mb(p.bytes)} written)`);
  };
}

export function printBackupSummary(s: BackupSummary): void {
  console.log(
    `Backup ${s.id} written to ${s.target} in ${(s.durationMs / 1000).toFixed(1)} s: ${s.objectsTotal} objects (${s.objectsCopied} copied, ${mb(s.bytes)} written; ${mb(s.totalBytes)} in all).`,
  );
  for (const u of s.excludedUploads)
    console.log(
      `Left out: the upload "${u.label}" in progress (${mb(u.bytes)} received); back up again once it is finished.`,
    );
  if (!s.signingKeyIncluded)
    console.log(
      'The signing key is not inside (BACKUP_PASSPHRASE is unset): keep SIGNING_KEY or DATA_DIR/signing.key somewhere safe, a restore asks for it.',
    );
  if (s.videosWithoutKeys) console.log(videosNeedRekey(s.videosWithoutKeys));
}

/** Asks for the signing key at the terminal. */
async function askSigningKey(): Promise<string> {
  if (!process.stdin.isTTY)
    throw new BackupError(
      'The backup holds no signing key: give it with --signing-key (SIGNING_KEY or DATA_DIR/signing.key of the old install).',
    );
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(
      'Signing key of the backed-up install (SIGNING_KEY, or the content of DATA_DIR/signing.key): ',
    );
  } finally {
    rl.close();
  }
}

type Values = Record<string, string | boolean | undefined>;

/** `backup:list`, `backup:verify ID`, `restore ID`. */
export async function backupCommand(
  command: 'backup:list' | 'backup:verify' | 'restore',
  config: Readonly<Config>,
  values: Values,
  positionals: string[],
  /** Where `restore` logs its security event (the CLI's own logger). */
  logger?: FastifyBaseLogger,
): Promise<number> {
  const from = typeof values.from === 'string' ? values.from : undefined;
  if (command === 'backup:list') {
    const backups = await listBackups({ config }, from);
    if (!backups.length) {
      console.log(`No complete backup at ${from ?? config.backup.target}.`);
      return 0;
    }
    for (const b of backups)
      console.log(
        `${b.id}  ${b.createdAt}  ${mb(b.bytes).padStart(10)}  ${String(b.objects).padStart(6)} objects  ${b.engine}  ${b.lastMigration}${b.encrypted ? '  encrypted' : ''}${b.signingKeyIncluded ? '' : '  (no signing key)'}${b.videosWithoutKeys ? `  (no keys of ${b.videosWithoutKeys} videos: media:rekey after a restore)` : ''}`,
      );
    return 0;
  }
  const id = positionals[0];
  if (!id) throw new BackupError(`Name the backup: ${command} ID (see backup:list).`);
  const allowUnsealed = values['allow-unsealed'] === true;
  if (command === 'backup:verify') {
    const report = await verifyBackup({ config }, id, { target: from, allowUnsealed });
    console.log(
      `Backup ${id} is sound: ${report.sealed ? 'its manifest is authentic, ' : ''}${report.tables} tables (${report.rows} rows) match the manifest, ${report.objects} objects (${mb(report.bytes)}) match their SHA-256.`,
    );
    if (!report.sealed)
      console.log(
        'It is not sealed (no BACKUP_PASSPHRASE when it was taken): nothing proves Lectern wrote it as it is.',
      );
    if (report.videosWithoutKeys) console.log(videosNeedRekey(report.videosWithoutKeys));
    return 0;
  }
  const store = values['media-store'];
  if (store !== undefined && store !== 'local' && store !== 's3')
    throw new BackupError('--media-store is local or s3.');
  await restoreBackup(config, id, {
    from,
    databaseUrl: typeof values['database-url'] === 'string' ? values['database-url'] : undefined,
    mediaStore: store,
    replace: values.replace === true,
    allowUnsealed,
    signingKey: typeof values['signing-key'] === 'string' ? values['signing-key'] : undefined,
    askSigningKey,
    onLine: (line) => console.log(line),
    by: 'cli',
    logger,
  });
  return 0;
}
