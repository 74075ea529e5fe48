import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Seals admins' TOTP secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the signing
 * key, with the admin's id as associated data, so a sealed secret copied onto another admin's row
 * does not open. `v1.<base64url of iv | tag | ciphertext>`. A database or a backup alone holds no
 * usable secret; after a restore under another signing key, `npm run cli -- mfa:reset USER`.
 */
export function secretBox(signingKey: Buffer) {
  const key = Buffer.from(
    hkdfSync('sha256', signingKey, Buffer.alloc(0), 'lectern admin totp secret v1', 32),
  );
  return {
    seal(userId: string, plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(userId));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },

    /** The secret, or null when the sealed text is not this key's (or not this admin's). */
    open(userId: string, sealed: string): string | null {
      const [version, data] = sealed.split('.');
      if (version !== VERSION || !data) return null;
      const bytes = Buffer.from(data, 'base64url');
      if (bytes.length < 29) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
        decipher.setAAD(Buffer.from(userId));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

export type SecretBox = ReturnType<typeof secretBox>;
