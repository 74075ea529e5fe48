import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { normaliseDump } from './database';
import { keyFingerprint, matchSigningKey, openSigningKey, sealSigningKey } from './secrets';

describe('the signing key in a backup', () => {
  it('opens with the passphrase it was sealed with, and the sealed form does not contain the key', async () => {
    const key = randomBytes(32);
    const sealed = await sealSigningKey(key, 'correct horse battery');
    expect(JSON.stringify(sealed)).not.toContain(key.toString('hex'));
    expect(JSON.stringify(sealed)).not.toContain(key.toString('base64'));
    expect((await openSigningKey(sealed, 'correct horse battery')).equals(key)).toBe(true);
  });

  it('refuses a wrong passphrase in one line', async () => {
    const sealed = await sealSigningKey(randomBytes(32), 'correct horse battery');
    await expect(openSigningKey(sealed, 'wrong horse battery')).rejects.toThrow(
      'Wrong BACKUP_PASSPHRASE: the signing key in this backup does not decrypt with it. Nothing was restored.',
    );
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

describe('a dump made portable', () => {
  it('drops only what one engine writes and the other cannot run, never a data line', () => {
    // Each line of the dump and whether it is kept: the \restrict pair with the dump's key and the
    // header's SET transaction_timeout go; the same words inside the INSERT's quoted value are data.
    const lines: [line: string, kept: boolean][] = [
      ['\\restrict k3y', false],
      ['SET transaction_timeout = 0;', false],
      ['SET lock_timeout = 0;', true],
      ['CREATE TABLE public.t (a text);', true],
      ["INSERT INTO public.t VALUES ('", true],
      ['SET transaction_timeout = 0;', true],
      ['\\restrict other', true],
      ["');", true],
      ['\\unrestrict k3y', false],
    ];
    const dump = lines.map(([line]) => line).join('\n');
    const kept = lines.filter(([, keep]) => keep).map(([line]) => line);
    expect(normaliseDump(dump).split('\n')).toEqual(kept);
  });
});
