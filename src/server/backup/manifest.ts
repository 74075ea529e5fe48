import type { SealedKey } from './secrets';
import type { ExcludedUpload } from './types';
import { BackupError } from './errors';

/** Bumped when a manifest changes in a way older code cannot read; a restore refuses newer ones. */
export const FORMAT_VERSION = 1;

/** One media object of the backup: where it lived and the content it had. */
export interface MediaEntry {
  key: string;
  store: 'local' | 's3';
  size: number;
  sha256: string;
  /** What told the next backup the object is unchanged: S3's ETag or the file's mtime (ms) and size. */
  stamp: string;
}

export interface TableStat {
  rows: number;
  /** md5 over the sorted md5s of each row's text form, with TimeZone=UTC: equal on both engines. */
  checksum: string;
}

export interface Manifest {
  formatVersion: number;
  id: string;
  lecternVersion: string;
  lastMigration: string;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL's version of the dumped server. */
  serverVersion: string;
  createdAt: string;
  finishedAt: string;
  database: { sha256: string; size: number };
  tables: Record<string, TableStat>;
  media: MediaEntry[];
  excludedUploads: ExcludedUpload[];
  signingKey: { fingerprint: string; sealed: SealedKey | null };
}

export const manifestKey = (id: string) => `backups/${id}/manifest.json`;
export const objectKey = (sha256: string) => `objects/${sha256.slice(0, 2)}/${sha256}`;

export function parseManifest(bytes: Buffer, id: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  } catch {
    throw new BackupError(`The manifest of backup ${id} is damaged (not JSON).`);
  }
  if (typeof manifest.formatVersion !== 'number' || !Array.isArray(manifest.media))
    throw new BackupError(`The manifest of backup ${id} is damaged.`);
  return manifest;
}

/** Backup ids sort by time, to the millisecond: `20261124T150102Z-3e7a`. */
export function newBackupId(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  // The suffix is the millisecond (3 hex digits) and one random digit: two backups in one second
  // still sort by time, which is the order retention keeps them in.
  const ms = at.getUTCMilliseconds().toString(16).padStart(3, '0');
  return `${stamp}-${ms}${Math.floor(Math.random() * 16).toString(16)}`;
}

export const BACKUP_ID = /^\d{8}T\d{6}Z-[0-9a-f]{4}$/;
