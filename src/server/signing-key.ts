import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The HMAC key for playback tokens and one-time codes: `SIGNING_KEY`, or a random key generated once
 * into `DATA_DIR/signing.key`. Nodes that share a database must share this key too.
 */
export function loadSigningKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, 'signing.key');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex'); // another process won the race
  }
}
