import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '../../../test/support/databases';
import { runCli } from '../../../test/support/processes';
import { openDatabase } from '../db/client';
import { unwrapSecret } from './video-secrets';

const VIDEO = '44444444-4444-4444-8444-444444444444';
const HLS_KEY = 'aa'.repeat(16);
const PERIOD_KEY = 'bb'.repeat(16);
const FORENSIC = 'cc'.repeat(32);
const OLD_KEY = 'the signing key these keys were stored under';
const NEW_KEY = 'a different signing key, set after a move!!!';

/**
 * Keys stored plain by an older Lectern: the doctor counts them, `migrate:post-deploy` wraps them
 * once; a changed SIGNING_KEY is a doctor fail until `media:rewrap-keys` is given the old key.
 */
describe.skipIf(!testEngines().includes('postgres'))('video keys wrapped at rest (postgres)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;

  const rows = async () => {
    const opened = await openDatabase({ url: database.url, dataDir, migrate: false });
    try {
      const videos = (await opened.db.execute(sql`select hls_key, forensic_secret from videos`)).rows[0] as {
        hls_key: string;
        forensic_secret: string;
      };
      const keys = (await opened.db.execute(sql`select key from video_keys`)).rows as { key: string }[];
      return { hls: videos.hls_key, forensic: videos.forensic_secret, period: keys[0]!.key };
    } finally {
      await opened.close();
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-keys-'));
    env = { DATA_DIR: dataDir, DATABASE_URL: database.url, SIGNING_KEY: OLD_KEY, SEED_DEMO: 'false' };
    const opened = await openDatabase({ url: database.url, dataDir });
    await opened.db
      .execute(sql`insert into videos (id, title, source_name, status, renditions, hls_key, forensic_secret)
      values (${VIDEO}, 'Old lecture', 'o.mp4', 'ready', '[180]', ${HLS_KEY}, ${FORENSIC})`);
    await opened.db.execute(
      sql`insert into video_keys (video_id, period, key) values (${VIDEO}, 1, ${PERIOD_KEY})`,
    );
    await opened.close();
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('wraps plain keys once at migrate:post-deploy, after the doctor counted them', async () => {
    expect((await runCli(['doctor'], env)).stdout).toMatch(
      /warn\s+video keys\s+3 video key\(s\) or secret\(s\) stored plain[^\n]*\n\s+fix: once every node runs this version: npm run cli -- migrate:post-deploy/,
    );
    const first = await runCli(['migrate:post-deploy'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Wrapped 3 video key(s) and secret(s) stored plain.');
    const wrapped = await rows();
    for (const stored of Object.values(wrapped)) expect(stored).toMatch(/^w1\./);
    const key = Buffer.from(OLD_KEY);
    expect(unwrapSecret(key, VIDEO, 'segment-key', wrapped.hls).toString('hex')).toBe(HLS_KEY);
    expect(unwrapSecret(key, VIDEO, 'segment-key', wrapped.period).toString('hex')).toBe(PERIOD_KEY);
    expect(unwrapSecret(key, VIDEO, 'forensic-secret', wrapped.forensic).toString('hex')).toBe(FORENSIC);
    // Again: nothing left to wrap, nothing changed.
    expect((await runCli(['migrate:post-deploy'], env)).stdout).not.toContain('Wrapped');
    expect(await rows()).toEqual(wrapped);
    expect((await runCli(['doctor'], env)).stdout).toMatch(/ok\s+video keys\s+wrapped/);
  }, 120_000);

  it('under another SIGNING_KEY: the doctor fails, media:rewrap-keys with the old key wraps them anew', async () => {
    const moved = { ...env, SIGNING_KEY: NEW_KEY };
    const doctor = await runCli(['doctor'], moved);
    expect(doctor.stdout).toMatch(
      /fail\s+video keys\s+1 video\(s\) have keys that do not open with this signing key[^\n]*\n\s+fix: set SIGNING_KEY[^\n]*media:rewrap-keys --old-signing-key KEY/,
    );
    expect(doctor.code).toBe(1);
    const wrong = await runCli(
      ['media:rewrap-keys', '--old-signing-key', 'not the key it was stored under'],
      moved,
    );
    expect(wrong.stdout).toContain('3 open with neither key');
    expect(wrong.code).toBe(1);
    const rewrap = await runCli(['media:rewrap-keys', '--old-signing-key', OLD_KEY], moved);
    expect(rewrap.stdout).toContain('Wrapped 3 video key(s) and secret(s) under this signing key.');
    expect(rewrap.code).toBe(0);
    const now = await rows();
    const key = Buffer.from(NEW_KEY);
    expect(unwrapSecret(key, VIDEO, 'segment-key', now.period).toString('hex')).toBe(PERIOD_KEY);
    expect(unwrapSecret(key, VIDEO, 'forensic-secret', now.forensic).toString('hex')).toBe(FORENSIC);
    expect((await runCli(['doctor'], moved)).stdout).toMatch(/ok\s+video keys\s+wrapped/);
  }, 120_000);
});
