import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt } from 'node:crypto';
import { BackupError } from './errors';

/** The signing key as a backup holds it: AES-256-GCM under a key scrypt derives from BACKUP_PASSPHRASE. */
export interface SealedKey {
  algorithm: 'aes-256-gcm';
  kdf: { name: 'scrypt'; salt: string; N: number; r: number; p: number };
  iv: string;
  tag: string;
  ciphertext: string;
}

const SCRYPT = { N: 2 ** 15, r: 8, p: 1 };
const derive = (passphrase: string, salt: Buffer, params: typeof SCRYPT) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(passphrase, salt, 32, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export async function sealSigningKey(key: Buffer, passphrase: string): Promise<SealedKey> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derive(passphrase, salt, SCRYPT), iv);
  const ciphertext = Buffer.concat([cipher.update(key), cipher.final()]);
  return {
    algorithm: 'aes-256-gcm',
    kdf: { name: 'scrypt', salt: salt.toString('base64'), ...SCRYPT },
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
}

export async function openSigningKey(sealed: SealedKey, passphrase: string): Promise<Buffer> {
  const { N, r, p, salt } = sealed.kdf;
  const decipher = createDecipheriv(
    'aes-256-gcm',
    await derive(passphrase, Buffer.from(salt, 'base64'), { N, r, p }),
    Buffer.from(sealed.iv, 'base64'),
  );
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
  } catch {
    throw new BackupError(
      'Wrong BACKUP_PASSPHRASE: the signing key in this backup does not decrypt with it. Nothing was restored.',
    );
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
