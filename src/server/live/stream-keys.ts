import { randomBytes } from 'node:crypto';
import { unwrapSecret, wrapSecret } from '../videos/video-secrets';

/**
 * A class's stream key: 128 random bits as 32 hex digits. The same text is the SRT passphrase (10-79
 * characters, AES-128 in SRT's handshake) and the RTMP stream key. The row keeps it wrapped under the
 * signing key, bound to the class's id (videos/video-secrets.ts), so a database alone holds no key.
 * Never pass it to a logger: log the class's id.
 */
export const STREAM_KEY_BYTES = 16;

export function newStreamKey(): string {
  return randomBytes(STREAM_KEY_BYTES).toString('hex');
}

export function wrapStreamKey(signingKey: Buffer, classId: string, key: string): string {
  return wrapSecret(signingKey, classId, 'stream-key', Buffer.from(key, 'utf8'));
}

export function openStreamKey(signingKey: Buffer, classId: string, stored: string): string {
  return unwrapSecret(signingKey, classId, 'stream-key', stored).toString('utf8');
}
