import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { BackupKeys } from './encryption';
import { scryptKey } from './encryption';
import { BackupError } from './errors';

/**
 * The signing key as a backup holds it: AES-256-GCM. Format 2 seals it under a key derived from
 * the backup's keys (no `kdf` of its own); format 1 sealed it under its own scrypt key (N = 2^15).
 */
export interface SealedKey {
  algorithm: 'aes-256-gcm';
  kdf?: { name: 'scrypt'; salt: string; N: number; r: number; p: number };
  iv: string;
  tag: string;
  ciphertext: string;
}

/** What format 1 wrote, and all it is allowed to ask for. */
const FORMAT_1_SCRYPT = { N: 2 ** 15, r: 8, p: 1 };

const WRONG_PASSPHRASE =
  'Wrong BACKUP_PASSPHRASE: the signing key in this backup does not decrypt with it. Nothing was restored.';

export function sealSigningKey(key: Buffer, keys: BackupKeys): SealedKey {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.signingKeySealKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(key), cipher.final()]);
  return {
    algorithm: 'aes-256-gcm',
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
}

/** Opens a format-2 seal with the backup's keys, or a format-1 seal with the passphrase. */
export async function openSigningKey(
  sealed: SealedKey,
  secret: { keys: BackupKeys } | { passphrase: string },
): Promise<Buffer> {
  let key: Buffer;
  if ('keys' in secret) key = secret.keys.signingKeySealKey();
  else {
    const { N, r, p, salt } = sealed.kdf ?? {};
    if (N !== FORMAT_1_SCRYPT.N || r !== FORMAT_1_SCRYPT.r || p !== FORMAT_1_SCRYPT.p || !salt)
      throw new BackupError(
        `The signing key of this backup asks for scrypt N=${N}, r=${r}, p=${p}, which Lectern never wrote: the manifest was changed. Nothing was restored.`,
      );
    key = await scryptKey(secret.passphrase, Buffer.from(salt, 'base64'), FORMAT_1_SCRYPT);
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
  } catch {
    throw new BackupError(WRONG_PASSPHRASE);
  }
}

/** Names a key without revealing it, so a restore can tell whether the key it was given is the right one. */
export const keyFingerprint = (key: Buffer) =>
  createHash('sha256').update('lectern-signing-key-fingerprint\0').update(key).digest('hex').slice(0, 16);

/** A key as a person gives it back: SIGNING_KEY's text, or signing.key's hex; answers the bytes that match. */
export function matchSigningKey(given: string, fingerprint: string): Buffer | undefined {
  const text = given.trim();
  const candidates = [Buffer.from(text, 'utf8')];
  if (/^[0-9a-f]+$/i.test(text) && text.length % 2 === 0) candidates.unshift(Buffer.from(text, 'hex'));
  return candidates.find((key) => keyFingerprint(key) === fingerprint);
}

/**
 * What a backup without BACKUP_PASSPHRASE leaves out of the database: the videos' AES-128 segment
 * keys and forensic-mark secrets (whoever holds them and the segments beside them has the videos).
 * Columns are written as NULL, tables with no rows. The signing key stays out too (run-backup).
 */
export const SECRET_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  'public.videos': ['hls_key', 'forensic_secret'],
  // The school's certificate signing key (sealed under SIGNING_KEY, which such a backup leaves out too).
  'public.issuer_keys': ['sealed_secret'],
};
export const SECRET_TABLES: readonly string[] = ['public.video_keys'];

/** Videos that have a segment key or forensic secret: the ones a backup without passphrase cannot play back. */
export const VIDEOS_WITH_SECRETS_SQL = `select count(*)::int as n from public.videos v
  where v.hls_key is not null or v.forensic_secret is not null
     or exists (select 1 from public.video_keys k where k.video_id = v.id)`;

/** Ready videos with no segment key at all: restored from a backup taken without BACKUP_PASSPHRASE. */
export const VIDEOS_WITHOUT_KEYS_SQL = `select count(*)::int as n from public.videos v
  where v.status = 'ready' and v.renditions <> '[]'::jsonb and v.hls_key is null
    and not exists (select 1 from public.video_keys k where k.video_id = v.id)`;
