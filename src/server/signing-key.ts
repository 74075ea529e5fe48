import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config';

/** Shorter HMAC keys can be guessed: every playback token and one-time code would then be forgeable. */
const MIN_KEY_BYTES = 32;

/**
 * The HMAC key for playback tokens and one-time codes: `SIGNING_KEY`, or a random key generated once
 * into `DATA_DIR/signing.key`. Nodes that share a database must share this key too. A key shorter
 * than 32 bytes stops the start with a ConfigError naming where it came from.
 */
export function loadSigningKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured)
    return checked(Buffer.from(configured, 'utf8'), 'SIGNING_KEY', 'the same 32+ characters on every node');
  const file = path.join(dataDir, 'signing.key');
  try {
    return readKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(MIN_KEY_BYTES);
  try {
    writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    return readKeyFile(file); // another process won the race
  }
}

/** The install's key if it has one: SIGNING_KEY, or DATA_DIR/signing.key; never generates one. */
export function existingSigningKey(config: {
  signingKey: string | undefined;
  dataDir: string;
}): Buffer | undefined {
  if (config.signingKey) return loadSigningKey(config.signingKey, config.dataDir);
  return existsSync(path.join(config.dataDir, 'signing.key'))
    ? loadSigningKey(undefined, config.dataDir)
    : undefined;
}

/** The file holds the key in hex, as the first start (or a restore) wrote it. */
function readKeyFile(file: string): Buffer {
  const text = readFileSync(file, 'utf8').trim();
  const where = `DATA_DIR/signing.key (${file})`;
  if (!/^(?:[0-9a-f]{2})*$/i.test(text))
    throw new ConfigError(
      `Invalid ${where}: expected the key in hex; put the install's key back, or set SIGNING_KEY`,
    );
  return checked(
    Buffer.from(text, 'hex'),
    where,
    "put the install's key back, or delete the file to generate one (links and codes made with the old key then stop working)",
  );
}

function checked(key: Buffer, where: string, fix: string): Buffer {
  if (key.length >= MIN_KEY_BYTES) return key;
  throw new ConfigError(
    `Invalid ${where}: ${key.length} bytes, a signing key needs at least ${MIN_KEY_BYTES}; ${fix}`,
  );
}
