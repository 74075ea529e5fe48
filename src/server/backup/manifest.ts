import { BackupKeys, checkKdf, sameTag, type KdfParams } from './encryption';
import type { SealedKey } from './secrets';
import type { ExcludedUpload } from './types';
import { BackupError } from './errors';

/**
 * Bumped when a manifest changes in a way older code cannot read; a restore refuses newer ones.
 * 1: a plain SQL dump beside the media, the manifest as it is. 2: the dump holds table data only
 * (rows.ts), encrypted with BACKUP_PASSPHRASE, and the manifest is sealed (an HMAC under a key of
 * the passphrase); without a passphrase, the videos' keys and secrets are left out.
 */
export const FORMAT_VERSION = 2;

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
  /** Contract migrations (db/post-deploy.ts) the database had applied. */
  postDeploy: string[];
  engine: 'pglite' | 'postgres';
  /** PostgreSQL's version of the dumped server. */
  serverVersion: string;
  createdAt: string;
  finishedAt: string;
  /**
   * `rows`: table data as rows.ts writes it, `encrypted` with the backup's keys or plain.
   * `sql`: format 1's plain SQL dump (only ever loaded into a throwaway in-memory database).
   */
  database: { sha256: string; size: number; format: 'rows' | 'sql'; encrypted: boolean };
  tables: Record<string, TableStat>;
  media: MediaEntry[];
  excludedUploads: ExcludedUpload[];
  signingKey: { fingerprint: string; sealed: SealedKey | null };
  /**
   * Whether the videos' segment keys and forensic secrets are inside (with a passphrase, encrypted),
   * and how many videos had any: without them those videos need `media:rekey` once restored.
   */
  videoSecrets: { included: boolean; videos: number };
}

/**
 * manifest.json of format 2: the manifest's exact bytes as a string, and the seal that
 * authenticates them (null without BACKUP_PASSPHRASE). The seal's `kdf` is read before anything is
 * authenticated, so its parameters are bounded (encryption.ts); `keyCheck` tells a wrong
 * passphrase from a changed manifest.
 */
interface Envelope {
  formatVersion: 2;
  seal: { kdf: KdfParams; keyCheck: string; hmac: string } | null;
  manifest: string;
}

export const manifestKey = (id: string) => `backups/${id}/manifest.json`;
export const objectKey = (sha256: string) => `objects/${sha256.slice(0, 2)}/${sha256}`;

/** The bytes of manifest.json for `manifest`, sealed with `keys` when there are any. */
export function writeManifest(manifest: Manifest, keys: BackupKeys | undefined): Buffer {
  const body = JSON.stringify(manifest);
  const envelope: Envelope = {
    formatVersion: 2,
    seal: keys
      ? { kdf: keys.kdf, keyCheck: keys.keyCheck(), hmac: keys.manifestTag(Buffer.from(body)) }
      : null,
    manifest: body,
  };
  return Buffer.from(JSON.stringify(envelope));
}

/** A manifest as read, before its seal is checked: what listing needs, and what opening checks. */
export interface ReadManifest {
  manifest: Manifest;
  seal: Envelope['seal'];
  body: string;
}

/** Format 1's manifest in format 2's shape (its dump was SQL and held every secret in clear). */
function fromFormat1(
  m: Omit<Manifest, 'database' | 'postDeploy' | 'videoSecrets'> & {
    database: { sha256: string; size: number };
  },
): Manifest {
  return {
    ...m,
    postDeploy: [],
    database: { ...m.database, format: 'sql', encrypted: false },
    videoSecrets: { included: true, videos: 0 },
  };
}

export function parseManifest(bytes: Buffer, id: string): ReadManifest {
  const damaged = (why = '') => new BackupError(`The manifest of backup ${id} is damaged${why}.`);
  let outer: Record<string, unknown>;
  try {
    outer = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw damaged(' (not JSON)');
  }
  if (outer.formatVersion === 1 && Array.isArray(outer.media))
    return { manifest: fromFormat1(outer as never), seal: null, body: '' };
  if (typeof outer.formatVersion !== 'number') throw damaged();
  if (outer.formatVersion > FORMAT_VERSION)
    throw new BackupError(
      `Backup ${id} was written by a newer Lectern (manifest format ${outer.formatVersion}): upgrade this install first.`,
    );
  const envelope = outer as unknown as Envelope;
  if (typeof envelope.manifest !== 'string') throw damaged();
  let manifest: Manifest;
  try {
    manifest = JSON.parse(envelope.manifest) as Manifest;
  } catch {
    throw damaged(' (not JSON)');
  }
  if (!Array.isArray(manifest.media) || manifest.id !== id) throw damaged();
  return { manifest, seal: envelope.seal ?? null, body: envelope.manifest };
}

/** Why backup `m` has no seal, as the restore and its refusal say it. */
export const unsealedBecause = (m: Manifest) =>
  m.formatVersion < 2 ? 'taken by an older Lectern' : 'taken without BACKUP_PASSPHRASE';

/**
 * The manifest once its seal is checked, and the backup's keys: before anything else of the
 * backup is read. Unsealed backups (format 1, or taken without a passphrase) answer no keys, and
 * under a passphrase only with `allowUnsealed` (`--allow-unsealed`): removing a seal must not be a
 * way around it.
 */
export async function openManifest(
  read: ReadManifest,
  passphrase: string | undefined,
  allowUnsealed = false,
): Promise<{ manifest: Manifest; keys: BackupKeys | undefined }> {
  const { manifest, seal, body } = read;
  const id = manifest.id;
  if (!seal) {
    if (manifest.formatVersion >= 2 && manifest.database.encrypted)
      throw new BackupError(
        `Backup ${id} has been tampered with: its encrypted dump has no sealed manifest.`,
      );
    if (passphrase && !allowUnsealed)
      throw new BackupError(
        `Backup ${id} is not sealed (${unsealedBecause(manifest)}), though this school's backups are: nothing proves Lectern wrote it as it is, or that no one removed its seal. Add --allow-unsealed to use it anyway.`,
      );
    return { manifest, keys: undefined };
  }
  if (!passphrase)
    throw new BackupError(
      `Backup ${id} is encrypted: set BACKUP_PASSPHRASE to the passphrase it was taken with. Nothing was read.`,
    );
  const keys = await BackupKeys.open(passphrase, checkKdf(seal.kdf, id));
  if (!sameTag(seal.keyCheck, keys.keyCheck()))
    throw new BackupError(
      `Wrong BACKUP_PASSPHRASE for backup ${id} (or its manifest's key fields were changed). Nothing was restored.`,
    );
  if (!sameTag(seal.hmac, keys.manifestTag(Buffer.from(body))))
    throw new BackupError(
      `Backup ${id} has been tampered with: its manifest does not match its authentication tag. Nothing was restored.`,
    );
  return { manifest, keys };
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
