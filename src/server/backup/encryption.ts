import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { BackupError } from './errors';

/**
 * What BACKUP_PASSPHRASE protects in a backup (format 2): one scrypt key per backup, from which
 * HKDF-SHA256 derives a key for each use: the manifest's HMAC, the dump's encryption, the signing
 * key's seal and a check value that tells a wrong passphrase from a changed manifest.
 */
export interface KdfParams {
  name: 'scrypt';
  /** Base64, fresh for every backup. */
  salt: string;
  N: number;
  r: number;
  p: number;
}

/** What a new backup uses: N = 2^17 is 128 MiB and about half a second, once per backup. */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1 };

/**
 * The parameters a manifest may ask for. They are read before anything is authenticated: below
 * the floor a changed manifest would weaken the key, above the ceiling it would make a restore
 * spend gigabytes and minutes.
 */
export const KDF_BOUNDS = {
  N: [2 ** 17, 2 ** 20],
  r: [8, 16],
  p: [1, 4],
  saltBytes: [16, 64],
  /** scrypt's memory, 128·N·r bytes. */
  memory: 1024 * 1024 * 1024,
} as const;

const within = (value: unknown, [low, high]: readonly [number, number]) =>
  Number.isInteger(value) && (value as number) >= low && (value as number) <= high;

/** Refuses parameters outside KDF_BOUNDS, naming them: only a changed manifest has them. */
export function checkKdf(kdf: KdfParams | undefined, id: string): KdfParams {
  const salt = typeof kdf?.salt === 'string' ? Buffer.from(kdf.salt, 'base64') : Buffer.alloc(0);
  const sound =
    kdf?.name === 'scrypt' &&
    within(kdf.N, KDF_BOUNDS.N) &&
    (kdf.N & (kdf.N - 1)) === 0 &&
    within(kdf.r, KDF_BOUNDS.r) &&
    within(kdf.p, KDF_BOUNDS.p) &&
    within(salt.length, KDF_BOUNDS.saltBytes) &&
    128 * kdf.N * kdf.r <= KDF_BOUNDS.memory;
  if (!sound)
    throw new BackupError(
      `Backup ${id} has been tampered with: its key derivation (scrypt N=${kdf?.N}, r=${kdf?.r}, p=${kdf?.p}) is outside what Lectern writes and accepts (N 2^17 to 2^20, r 8 to 16, p 1 to 4).`,
    );
  return kdf!;
}

/** scrypt off the event loop (libuv's pool), with the memory the parameters need. */
export const scryptKey = (passphrase: string, salt: Buffer, { N, r, p }: Pick<KdfParams, 'N' | 'r' | 'p'>) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(passphrase, salt, 32, { N, r, p, maxmem: 128 * N * r + 16 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

const subkey = (master: Buffer, use: string, salt: Buffer = Buffer.alloc(0)) =>
  Buffer.from(hkdfSync('sha256', master, salt, `lectern-backup-2 ${use}`, 32));

/** One backup's keys, derived from BACKUP_PASSPHRASE and the backup's own salt. */
export class BackupKeys {
  private constructor(
    readonly kdf: KdfParams,
    private readonly master: Buffer,
  ) {}

  /** Keys for a new backup: a fresh salt. */
  static async create(passphrase: string): Promise<BackupKeys> {
    const salt = randomBytes(16);
    const kdf: KdfParams = { name: 'scrypt', salt: salt.toString('base64'), ...SCRYPT };
    return new BackupKeys(kdf, await scryptKey(passphrase, salt, kdf));
  }

  /** Keys for an existing backup; `kdf` must have passed `checkKdf`. */
  static async open(passphrase: string, kdf: KdfParams): Promise<BackupKeys> {
    return new BackupKeys(kdf, await scryptKey(passphrase, Buffer.from(kdf.salt, 'base64'), kdf));
  }

  /** Stored beside the tag: equal only under the right passphrase (and the kdf as it was written). */
  keyCheck(): string {
    return subkey(this.master, 'key check').toString('base64');
  }

  /** HMAC-SHA256 of the manifest's exact bytes. */
  manifestTag(body: Buffer): string {
    return createHmac('sha256', subkey(this.master, 'manifest')).update(body).digest('base64');
  }

  /** The key that seals the signing key (AES-256-GCM, its own IV). */
  signingKeySealKey(): Buffer {
    return subkey(this.master, 'signing key');
  }

  /** The dump's key: per dump, from the salt at the head of its encrypted file. */
  dumpKey(salt: Buffer): Buffer {
    return subkey(this.master, 'dump', salt);
  }
}

/** Whether `tag` (base64) equals `expected`, in constant time. */
export function sameTag(tag: unknown, expected: string): boolean {
  if (typeof tag !== 'string') return false;
  const [a, b] = [Buffer.from(tag, 'base64'), Buffer.from(expected, 'base64')];
  return a.length === b.length && timingSafeEqual(a, b);
}

/*
 * The encrypted dump: a header (MAGIC, then a 32-byte salt for the dump key), then the plaintext in
 * CHUNK-byte pieces, each sealed by AES-256-GCM with the nonce (piece number, last-piece flag): the
 * STREAM construction (Hoang, Reyhanitabar, Rogaway, Vizár 2015), as age and Tink stream. Every
 * piece is authenticated before its bytes are used; a piece moved, dropped, changed or a file cut
 * short fails its tag.
 */
const MAGIC = Buffer.from('LECTERN-DUMP-2\n\0', 'latin1');
const SALT_BYTES = 32;
const CHUNK = 64 * 1024;
const TAG_BYTES = 16;

function nonce(counter: number, last: boolean): Buffer {
  const n = Buffer.alloc(12);
  n.writeUIntBE(counter, 5, 6);
  n[11] = last ? 1 : 0;
  return n;
}

/** Gathers written chunks and hands out pieces of `size` bytes without copying more than needed. */
class Pieces {
  private parts: Buffer[] = [];
  length = 0;
  push(chunk: Buffer) {
    this.parts.push(chunk);
    this.length += chunk.length;
  }
  take(size: number): Buffer {
    const whole = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    const piece = whole.subarray(0, size);
    const rest = whole.subarray(size);
    this.parts = rest.length ? [rest] : [];
    this.length = rest.length;
    return piece;
  }
}

/** Encrypts the chunks as they pass (the dump is never whole in memory). */
export async function* encryptChunks(
  keys: BackupKeys,
  source: AsyncIterable<Buffer>,
): AsyncGenerator<Buffer> {
  const salt = randomBytes(SALT_BYTES);
  const key = keys.dumpKey(salt);
  const pending = new Pieces();
  let counter = 0;
  const seal = (plain: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(counter++, last));
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  yield Buffer.concat([MAGIC, salt]);
  for await (const chunk of source) {
    pending.push(chunk);
    // Keeps at least one byte back: the last piece is sealed as the last one, below.
    while (pending.length > CHUNK) yield seal(pending.take(CHUNK), false);
  }
  yield seal(pending.take(pending.length), true);
}

/** Decrypts what `encryptChunks` wrote; fails with one line at the first piece that is not authentic. */
export async function* decryptChunks(
  keys: BackupKeys,
  id: string,
  source: AsyncIterable<Buffer>,
): AsyncGenerator<Buffer> {
  const tampered = () =>
    new BackupError(
      `Backup ${id} has been tampered with: its encrypted database dump does not authenticate.`,
    );
  const pending = new Pieces();
  let key: Buffer | undefined;
  let counter = 0;
  const open = (sealed: Buffer, last: boolean) => {
    if (sealed.length < TAG_BYTES) throw tampered();
    const decipher = createDecipheriv('aes-256-gcm', key!, nonce(counter++, last));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw tampered();
    }
  };
  for await (const chunk of source) {
    pending.push(chunk);
    if (!key) {
      if (pending.length < MAGIC.length + SALT_BYTES) continue;
      const head = pending.take(MAGIC.length + SALT_BYTES);
      if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw tampered();
      key = keys.dumpKey(Buffer.from(head.subarray(MAGIC.length)));
    }
    while (pending.length > CHUNK + TAG_BYTES) yield open(pending.take(CHUNK + TAG_BYTES), false);
  }
  if (!key) throw tampered();
  yield open(pending.take(pending.length), true);
}
