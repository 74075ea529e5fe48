import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';

/**
 * What the backup engine needs of a running process: the configuration (BACKUP_TARGET, the bucket
 * settings, BACKUP_PASSPHRASE), the database it reads in one snapshot, the media stores it copies
 * from and the signing key it encrypts. An `AppContext` is one.
 */
export type BackupContext = Pick<AppContext, 'config' | 'db' | 'dbKind' | 'media' | 'signingKey'>;

/** Reported while a backup runs: `done` of `total` steps of the phase, `bytes` written to the target so far. */
export interface BackupProgress {
  phase: 'database' | 'media' | 'manifest';
  done: number;
  total: number;
  bytes: number;
}

export interface BackupOptions {
  /** A folder or `s3://bucket/prefix`; default BACKUP_TARGET (itself DATA_DIR/backups by default). */
  target?: string;
  onProgress?: (progress: BackupProgress) => void;
  /** Aborts the backup; no manifest is written, so it is never listed as complete. */
  signal?: AbortSignal;
}

/** An upload in progress when the backup was taken: left out, and said so. */
export interface ExcludedUpload {
  storageName: string;
  /** The file name the admin uploads. */
  label: string;
  /** Bytes received so far. */
  bytes: number;
}

export interface BackupSummary {
  /** `YYYYMMDDTHHMMSSZ-xxxx`: sorts by time. */
  id: string;
  /** ISO 8601. */
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Bytes written to the target by this run (the dump plus the objects not already there). */
  bytes: number;
  /** The whole backup's size: the dump plus every object it references. */
  totalBytes: number;
  /** Media objects the backup references, and how many of them this run had to copy. */
  objectsTotal: number;
  objectsCopied: number;
  excludedUploads: ExcludedUpload[];
  /** Where it went, as given (a folder or `s3://bucket/prefix`). */
  target: string;
  /** False when BACKUP_PASSPHRASE is unset: the restore then asks for the signing key. */
  signingKeyIncluded: boolean;
  /** Videos whose segment keys and forensic secrets were left out (no BACKUP_PASSPHRASE): restored, they need `media:rekey`. */
  videosWithoutKeys: number;
}

/** A complete backup at a target (one whose manifest was written). */
export interface BackupListing {
  id: string;
  /** When its database snapshot was taken (ISO 8601). */
  createdAt: string;
  /** The dump plus every object it references. */
  bytes: number;
  objects: number;
  engine: 'pglite' | 'postgres';
  lecternVersion: string;
  lastMigration: string;
  signingKeyIncluded: boolean;
  /** As BackupSummary's: videos that need `media:rekey` once restored from this backup. */
  videosWithoutKeys: number;
  /** Format 2 with BACKUP_PASSPHRASE: the dump encrypted and the manifest sealed. */
  encrypted: boolean;
  excludedUploads: number;
}

export interface PruneOptions {
  /** How many of the newest complete backups to keep (at least 1). */
  keep: number;
  target?: string;
}

export interface PruneResult {
  /** Ids of the backups removed (complete ones beyond `keep`). */
  removedBackups: string[];
  /** Objects no kept backup references any more, removed (left-overs of killed backups included). */
  removedObjects: number;
  freedBytes: number;
}

/** Under BACKUP_PASSPHRASE, use a backup that has no seal (`--allow-unsealed`); refused otherwise. */
interface UnsealedOption {
  allowUnsealed?: boolean;
}

export interface VerifyOptions extends UnsealedOption {
  target?: string;
  onProgress?: (progress: { phase: 'database' | 'media'; done: number; total: number }) => void;
}

export interface VerifyReport {
  id: string;
  tables: number;
  rows: number;
  objects: number;
  bytes: number;
  /** The manifest's seal checked out (BACKUP_PASSPHRASE); false: nothing proves who wrote the backup. */
  sealed: boolean;
  videosWithoutKeys: number;
}

export interface RestoreOptions extends UnsealedOption {
  /** Where the backup is; default BACKUP_TARGET. */
  from?: string;
  /** The database to restore into; default DATABASE_URL (unset: the embedded one in DATA_DIR). */
  databaseUrl?: string;
  /** Where the media goes; default MEDIA_STORE. */
  mediaStore?: 'local' | 's3';
  /** Restore over a non-empty install, after taking a backup of it. */
  replace?: boolean;
  /**
   * The signing key when the backup holds none (taken without BACKUP_PASSPHRASE): SIGNING_KEY's
   * value or DATA_DIR/signing.key's content. Asked for when needed and not given.
   */
  signingKey?: string;
  askSigningKey?: () => Promise<string>;
  /** What the restore is doing, one line at a time (the CLI prints them). */
  onLine?: (line: string) => void;
  /** Who runs the restore, for its security event (default `cli`). */
  by?: string;
  /** Where the restore's security event is logged (default: a logger for `config`). */
  logger?: FastifyBaseLogger;
}

export interface RestoreReport {
  id: string;
  engine: 'pglite' | 'postgres';
  tables: number;
  rows: number;
  objects: number;
  bytes: number;
  /** Id of the backup taken of what `--replace` replaced. */
  replacedBackupId: string | undefined;
  signingKey: 'from-backup' | 'given' | 'configured';
  /** Restored videos without their segment keys (a backup taken without BACKUP_PASSPHRASE): they need `media:rekey`. */
  videosWithoutKeys: number;
  /** Video keys and secrets the backup held plain (taken before wrapping), wrapped by the restore. */
  secretsWrapped: number;
}
