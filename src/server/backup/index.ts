/**
 * The backup engine (issue 18): one backup = a manifest, a plain SQL dump and the media objects it
 * references, stored by SHA-256 at a target (a folder or an S3 prefix). The manifest is written
 * last, so only complete backups are listed. Callers: the CLI (`backup`, `backup:list`,
 * `backup:verify`, `restore`) and the scheduled/on-demand backup job.
 */
export type {
  BackupContext,
  BackupListing,
  BackupOptions,
  BackupProgress,
  BackupSummary,
  ExcludedUpload,
  PruneOptions,
  PruneResult,
  RestoreOptions,
  RestoreReport,
  VerifyOptions,
  VerifyReport,
} from './types';
export { BackupError } from './errors';
export { runBackup } from './run-backup';
export { listBackups, pruneBackups } from './catalog';
export { verifyBackup } from './verify';
export { restoreBackup } from './restore';
