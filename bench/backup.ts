/**
 * `npm run bench -- backup`: a school of 10,000 students and 200 one-minute videos (one 180p
 * rendition of 4 s segments each, random bytes of a real segment's size so no two objects are equal),
 * backed up next to `tar` of the same files; then a second backup with nothing changed, a restore,
 * and the backup process's RSS growth. Then the same school's media in an S3 bucket backed up to
 * another prefix of the same service (server-side copy). Targets: >= 0.7x tar's MB/s (encrypted,
 * BACKUP_PASSPHRASE set; the same backup without a passphrase is printed beside it), second backup
 * < 10 s, RSS growth < 150 MB (scrypt alone holds 128 MiB for its half second).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { restoreBackup, runBackup } from '../src/server/backup';
import { loadConfig } from '../src/server/config';
import { videos } from '../src/server/db/schema';
import { openRuntime, type Runtime } from '../src/server/runtime';
import { createTestBucket } from '../test/support/stores';

const sh = promisify(execFile);
const STUDENTS = 10_000;
const VIDEOS = Number(process.env.BENCH_BACKUP_VIDEOS ?? 200);
const SEGMENTS = 15; // one minute of 4 s segments
const SEGMENT_BYTES = 160 * 1024; // a 180p segment at ~330 kbit/s

const mb = (bytes: number) => bytes / 1e6;
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Peak RSS growth over `base` while `work` runs, sampled every 50 ms. */
async function withRss<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; rssGrowthMB: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  try {
    const result = await work();
    return {
      result,
      ms: performance.now() - started,
      rssGrowthMB: mb(Math.max(peak, process.memoryUsage().rss) - base),
    };
  } finally {
    clearInterval(timer);
  }
}

async function school(
  runtime: Runtime,
  write: (key: string, bytes: Buffer) => Promise<void>,
): Promise<number> {
  const db = runtime.ctx.db;
  // Argon2 for 10,000 passwords would dominate the setup: one hash for all, as a fixture.
  await db.execute(sql`insert into users (role, username, email, name, rollno, password_hash, first_login)
    select 'student', 'student' || n, 'student' || n || '@bench.test', 'Student ' || n, 'R' || n,
           '$argon2id$v=19$m=19456,t=2,p=1$bench$bench', false
      from generate_series(1, ${STUDENTS}) n`);
  let bytes = 0;
  for (let v = 0; v < VIDEOS; v++) {
    const [video] = await db
      .insert(videos)
      .values({
        title: `Lecture ${v + 1}`,
        sourceName: `l${v}.mp4`,
        status: 'ready',
        renditions: [180],
        durationSeconds: 60,
        store: runtime.ctx.media.current.kind,
      })
      .returning({ id: videos.id });
    const id = video!.id;
    const files: [string, Buffer][] = [
      [`videos/${id}/poster.jpg`, randomBytes(24 * 1024)],
      [`videos/${id}/v180/index.m3u8`, Buffer.from(`#EXTM3U\n# ${id}\n`)],
      ...Array.from({ length: SEGMENTS }, (_, s): [string, Buffer] => [
        `videos/${id}/v180/seg_${String(s).padStart(5, '0')}.ts`,
        randomBytes(SEGMENT_BYTES),
      ]),
    ];
    await Promise.all(files.map(([key, body]) => write(key, body)));
    bytes += files.reduce((sum, [, body]) => sum + body.length, 0);
  }
  return bytes;
}

async function local(root: string): Promise<boolean> {
  const dataDir = path.join(root, 'data');
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    BACKUP_PASSPHRASE: 'bench-passphrase-1',
  };
  const runtime = await openRuntime(loadConfig(env));
  try {
    const bytes = await school(runtime, async (key, body) => {
      const file = path.join(dataDir, 'media', key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, body);
    });
    await sh('sync');
    const tarStarted = performance.now();
    await sh('tar', ['-cf', path.join(root, 'media.tar'), '-C', dataDir, 'media']);
    await sh('sync');
    const tarMs = performance.now() - tarStarted;
    await rm(path.join(root, 'media.tar'));

    const target = path.join(root, 'backups');
    const full = await withRss(async () => {
      const s = await runBackup(runtime.ctx, { target });
      await sh('sync');
      return s;
    });
    const again = await withRss(() => runBackup(runtime.ctx, { target }));
    // The same full backup without BACKUP_PASSPHRASE: what encrypting the dump and sealing cost.
    const config = runtime.ctx.config;
    const plain = await withRss(async () => {
      const s = await runBackup(
        { ...runtime.ctx, config: { ...config, backup: { ...config.backup, passphrase: undefined } } },
        { target: path.join(root, 'backups-plain') },
      );
      await sh('sync');
      return s;
    });
    const restoreDir = path.join(root, 'restored');
    const restore = await withRss(() =>
      restoreBackup(loadConfig({ ...env, DATA_DIR: restoreDir }), full.result.id, { from: target }),
    );
    const tarRate = mb(bytes) / (tarMs / 1000);
    const rate = mb(bytes) / (full.ms / 1000);
    console.log(
      `local store: ${STUDENTS} students, ${VIDEOS} videos, ${full.result.objectsTotal} objects, ${mb(bytes).toFixed(0)} MB`,
    );
    console.log('  what                         time      MB/s    ratio   target');
    console.log(
      `  tar of the media          ${seconds(tarMs).padStart(7)} s ${tarRate.toFixed(0).padStart(8)}`,
    );
    console.log(
      `  full backup               ${seconds(full.ms).padStart(7)} s ${rate.toFixed(0).padStart(8)} ${(rate / tarRate).toFixed(2).padStart(7)}x   >= 0.7x`,
    );
    const plainRate = mb(bytes) / (plain.ms / 1000);
    console.log(
      `  full, no passphrase       ${seconds(plain.ms).padStart(7)} s ${plainRate.toFixed(0).padStart(8)} ${(plainRate / tarRate).toFixed(2).padStart(7)}x`,
    );
    console.log(
      `  second backup (no change) ${seconds(again.ms).padStart(7)} s   ${again.result.objectsCopied} objects copied          < 10 s`,
    );
    console.log(
      `  restore                   ${seconds(restore.ms).padStart(7)} s ${(mb(bytes) / (restore.ms / 1000)).toFixed(0).padStart(8)}`,
    );
    console.log(
      `  RSS growth, full backup   ${full.rssGrowthMB.toFixed(0).padStart(7)} MB                      < 150 MB`,
    );
    return rate / tarRate >= 0.7 && again.ms < 10_000 && full.rssGrowthMB < 150;
  } finally {
    await runtime.close();
  }
}

async function s3(root: string): Promise<boolean> {
  if (!process.env.S3_ENDPOINT) {
    console.log('S3: skipped (start ../shared/tools/s3-server first)');
    return true;
  }
  const bucket = await createTestBucket();
  const dataDir = path.join(root, 's3-data');
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    ...bucket.env,
    MEDIA_STORE: 's3',
  };
  const runtime = await openRuntime(loadConfig(env));
  try {
    const bytes = await school(runtime, (key, body) => runtime.ctx.media.current.put(key, body));
    const target = `s3://${bucket.name}/backups`;
    const full = await withRss(() => runBackup(runtime.ctx, { target }));
    const again = await withRss(() => runBackup(runtime.ctx, { target }));
    const rate = mb(bytes) / (full.ms / 1000);
    console.log(
      `S3 store to s3://same-service (server-side copy): ${full.result.objectsTotal} objects, ${mb(bytes).toFixed(0)} MB`,
    );
    console.log(
      `  full backup               ${seconds(full.ms).padStart(7)} s ${rate.toFixed(0).padStart(8)} MB/s`,
    );
    console.log(
      `  second backup (no change) ${seconds(again.ms).padStart(7)} s   ${again.result.objectsCopied} objects copied          < 10 s`,
    );
    console.log(
      `  RSS growth, full backup   ${full.rssGrowthMB.toFixed(0).padStart(7)} MB                      < 150 MB`,
    );
    return again.ms < 10_000 && full.rssGrowthMB < 150;
  } finally {
    await runtime.close();
    await bucket.drop();
  }
}

export async function run(): Promise<boolean> {
  const root = await mkdtemp(path.join(tmpdir(), 'lectern-bench-backup-'));
  try {
    const a = await local(root);
    const b = await s3(root);
    return a && b;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
