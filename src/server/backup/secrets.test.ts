import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { BackupKeys, checkKdf, decryptChunks, encryptChunks, type KdfParams } from './encryption';
import { openManifest, parseManifest, writeManifest, type Manifest } from './manifest';
import { keyFingerprint, matchSigningKey, openSigningKey, sealSigningKey } from './secrets';

const PASSPHRASE = 'correct horse battery';

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

async function* pieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

let keys: BackupKeys;
beforeAll(async () => {
  keys = await BackupKeys.create(PASSPHRASE);
});

describe('the keys of a backup', () => {
  it('derive from the passphrase with scrypt N = 2^17 and a fresh salt each time', async () => {
    expect(keys.kdf).toMatchObject({ name: 'scrypt', N: 2 ** 17, r: 8, p: 1 });
    const again = await BackupKeys.create(PASSPHRASE);
    expect(again.kdf.salt).not.toBe(keys.kdf.salt);
    expect((await BackupKeys.open(PASSPHRASE, keys.kdf)).keyCheck()).toBe(keys.keyCheck());
  });

  it('refuse scrypt parameters outside fixed bounds, before deriving anything', () => {
    const salt = randomBytes(16).toString('base64');
    const ok: KdfParams = { name: 'scrypt', salt, N: 2 ** 17, r: 8, p: 1 };
    expect(checkKdf(ok, 'b')).toBe(ok);
    for (const bad of [
      { N: 2 ** 15 },
      { N: 2 ** 21 },
      { N: 3 * 2 ** 17 },
      { r: 4 },
      { r: 32 },
      { p: 0 },
      { p: 5 },
      { N: 2 ** 20, r: 16 },
      { salt: randomBytes(8).toString('base64') },
      { name: 'pbkdf2' },
    ])
      expect(() => checkKdf({ ...ok, ...bad } as KdfParams, 'b')).toThrow(
        /^Backup b has been tampered with: its key derivation \(scrypt N=.*\) is outside what Lectern writes and accepts/,
      );
  });
});

describe('the encrypted dump', () => {
  it('round-trips any length, piece by piece, and never holds the plaintext', async () => {
    for (const length of [0, 1, 65_535, 65_536, 65_537, 300_000]) {
      const plain = randomBytes(length);
      const sealed = await collect(encryptChunks(keys, pieces(plain, 10_000)));
      // 32 bytes of plaintext never show in the sealed file (shorter ones could, by chance).
      if (length >= 32) expect(sealed.includes(plain.subarray(0, 32))).toBe(false);
      expect((await collect(decryptChunks(keys, 'b', pieces(sealed, 7_777)))).equals(plain)).toBe(true);
    }
  });

  it('refuses a flipped byte, a piece dropped or moved, a cut file and the wrong keys, in one line', async () => {
    const plain = randomBytes(200_000);
    const sealed = await collect(encryptChunks(keys, pieces(plain, 65_536)));
    const header = 48;
    const piece = 65_536 + 16;
    const flipped = Buffer.from(sealed);
    flipped[header + 100]! ^= 1;
    const dropped = Buffer.concat([sealed.subarray(0, header + piece), sealed.subarray(header + 2 * piece)]);
    const moved = Buffer.concat([
      sealed.subarray(0, header),
      sealed.subarray(header + piece, header + 2 * piece),
      sealed.subarray(header, header + piece),
      sealed.subarray(header + 2 * piece),
    ]);
    const cut = sealed.subarray(0, header + 3 * piece);
    const other = await BackupKeys.create(PASSPHRASE);
    for (const [bytes, with_] of [
      [flipped, keys],
      [dropped, keys],
      [moved, keys],
      [cut, keys],
      [sealed, other],
    ] as const)
      await expect(collect(decryptChunks(with_, 'b', pieces(bytes, 65_536)))).rejects.toThrow(
        'Backup b has been tampered with: its encrypted database dump does not authenticate.',
      );
  });
});

describe('the sealed manifest', () => {
  const manifest = { formatVersion: 2, id: '20261124T030000Z-0001', media: [] } as unknown as Manifest;

  it('opens under the passphrase it was sealed with; any change is tampering, another passphrase is named', async () => {
    const bytes = writeManifest(manifest, keys);
    expect((await openManifest(parseManifest(bytes, manifest.id), PASSPHRASE)).manifest).toEqual(manifest);

    const envelope = JSON.parse(bytes.toString()) as { manifest: string; seal: { kdf: KdfParams } };
    const changed = { ...envelope, manifest: envelope.manifest.replace('"media":[]', '"media":[] ') };
    await expect(
      openManifest(parseManifest(Buffer.from(JSON.stringify(changed)), manifest.id), PASSPHRASE),
    ).rejects.toThrow(/^Backup 20261124T030000Z-0001 has been tampered with: its manifest does not match/);

    const weak = { ...envelope, seal: { ...envelope.seal, kdf: { ...envelope.seal.kdf, N: 1024 } } };
    await expect(
      openManifest(parseManifest(Buffer.from(JSON.stringify(weak)), manifest.id), PASSPHRASE),
    ).rejects.toThrow(/has been tampered with: its key derivation \(scrypt N=1024/);

    await expect(openManifest(parseManifest(bytes, manifest.id), 'not the passphrase')).rejects.toThrow(
      /^Wrong BACKUP_PASSPHRASE for backup 20261124T030000Z-0001/,
    );
    await expect(openManifest(parseManifest(bytes, manifest.id), undefined)).rejects.toThrow(
      /is encrypted: set BACKUP_PASSPHRASE/,
    );
  });
});

describe('the signing key in a backup', () => {
  it('opens with the backup keys it was sealed with, and the sealed form does not contain the key', async () => {
    const key = randomBytes(32);
    const sealed = sealSigningKey(key, keys);
    expect(JSON.stringify(sealed)).not.toContain(key.toString('hex'));
    expect(JSON.stringify(sealed)).not.toContain(key.toString('base64'));
    expect((await openSigningKey(sealed, { keys })).equals(key)).toBe(true);
    await expect(openSigningKey(sealed, { keys: await BackupKeys.create(PASSPHRASE) })).rejects.toThrow(
      'Wrong BACKUP_PASSPHRASE: the signing key in this backup does not decrypt with it. Nothing was restored.',
    );
  });

  it("opens a format-1 backup's key with its passphrase, and refuses parameters format 1 never wrote", async () => {
    const folder = path.join(
      import.meta.dirname,
      '../../../test/fixtures/backup-v1/backups/20261126T180744Z-24ca',
    );
    const { manifest } = parseManifest(
      readFileSync(path.join(folder, 'manifest.json')),
      '20261126T180744Z-24ca',
    );
    const sealed = manifest.signingKey.sealed!;
    const key = await openSigningKey(sealed, { passphrase: 'fixture-passphrase-v1' });
    expect(key.toString()).toBe('fixture-signing-key-of-at-least-32-chars!!');
    await expect(
      openSigningKey({ ...sealed, kdf: { ...sealed.kdf!, N: 2 } }, { passphrase: 'x' }),
    ).rejects.toThrow(/asks for scrypt N=2, r=8, p=1, which Lectern never wrote/);
  });

  it('recognises the key given back as signing.key hex or as SIGNING_KEY text, and nothing else', () => {
    const file = randomBytes(32);
    expect(matchSigningKey(file.toString('hex'), keyFingerprint(file))?.equals(file)).toBe(true);
    const text = 'a-signing-key-of-at-least-32-characters!';
    expect(matchSigningKey(`${text}\n`, keyFingerprint(Buffer.from(text)))?.toString()).toBe(text);
    expect(matchSigningKey(randomBytes(32).toString('hex'), keyFingerprint(file))).toBeUndefined();
  });
});

describe('backup settings', () => {
  it('default to DATA_DIR/backups, and a bucket target needs credentials, named in one line', () => {
    expect(loadConfig({ DATA_DIR: '/srv/lectern' }).backup.target).toBe('/srv/lectern/backups');
    expect(() => loadConfig({ BACKUP_TARGET: 's3://school-backups/nightly' })).toThrow(
      /^Missing BACKUP_S3_ACCESS_KEY_ID: BACKUP_TARGET=s3:\/\/school-backups\/nightly needs credentials/,
    );
    expect(() => loadConfig({ BACKUP_TARGET: 'ftp://x' })).toThrow(/^Invalid BACKUP_TARGET="ftp:\/\/x"/);
    expect(() => loadConfig({ BACKUP_PASSPHRASE: 'short' })).toThrow(/^Invalid BACKUP_PASSPHRASE=/);
  });
});
