import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { readdir, writeFile } from 'node:fs/promises';

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines } from '../../test/support/databases';
import { TestClient } from '../../test/support/http-client';
import { freePort, serverCommand, startServerProcess } from '../../test/support/processes';
import { seedMigratedPglite } from '../../test/support/school-image';
import { s3Env } from '../../test/support/stores';
import { suiteTempDirs } from '../../test/support/temp-dirs';

/** Resident memory of a process, in MB. */
const rssMB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

interface Started {
  stdout: string;
  stderr: string;
  pid: number;
}

/**
 * Starts the server as `npm start` would, on a terminal (`script` gives it a pseudo-terminal) or
 * with stdout piped, and resolves once it printed `ready`; the process is killed afterwards. Its
 * DATA_DIR holds only the migrated embedded database: what a first start prints (the generated
 * password, the demo sign-ins) comes after the migrations, which the first test covers.
 */
async function startUntil(
  ready: RegExp,
  env: Record<string, string>,
  { tty }: { tty: boolean },
): Promise<Started> {
  if (env.DATA_DIR) await seedMigratedPglite(env.DATA_DIR);
  const port = await freePort();
  const command = [process.execPath, ...serverCommand('main')].join(' ');
  const [file, args] = tty
    ? ['script', ['-qfec', command, '/dev/null']]
    : [process.execPath, command.split(' ').slice(1)];
  const child = spawn(file as string, args as string[], {
    env: { ...process.env, LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const out = { stdout: '', stderr: '', pid: child.pid! };
  child.stdout.on('data', (d) => (out.stdout += d));
  child.stderr.on('data', (d) => (out.stderr += d));
  try {
    const deadline = Date.now() + 60_000;
    while (!ready.test(out.stdout)) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`not ready:\n${out.stdout}${out.stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    return { ...out };
  } finally {
    process.kill(-child.pid!, 'SIGKILL');
  }
}

/** The status of a GET sent on a connection of its own. */
function statusOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

/** Polls `probe` until it answers something (10 s at most). */
async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Each test starts real server processes (a first start makes an embedded database): a busy machine needs more than 30 s.
describe('server process', { timeout: 90_000 }, () => {
  const tempDir = suiteTempDirs();

  it('prints a generated admin password on first start only, and stops cleanly on SIGTERM', async () => {
    const dataDir = await tempDir('lectern-main-');
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'false', OPEN_HOURS: 'always' };

    const first = await startServerProcess(env);
    // A fresh embedded database is made in a child process, so its initdb's ~450 MB never sits in the
    // server (over 700 MB RSS when it did). Run from source here, tsx adds ~100 MB to the bundle's ~250;
    // Node.js 24 adds ~50 MB more than 20 did (about 500 MB in all here); since the search index
    // (pg_trgm loaded into the embedded database, the screen-text worker) it measured 610-760 MB:
    // a regression noted in issue 29's note, bounded here so that it cannot grow unseen. What is
    // bounded is what stays: migrating a first start's database peaks at about 830 MB for a moment
    // (sampled every 0.5 s: 336, 462, 832, 520 at ready, 325 after a collection), and on a busy
    // machine "ready" can come before that peak is collected (983 MB in one CI run here).
    await expect.poll(() => rssMB(first.child.pid!), { timeout: 15_000, interval: 250 }).toBeLessThan(800);
    const password = first.output().match(/Admin account created: admin \/ (\S+)/)?.[1];
    expect(password).toBeTruthy();
    const login = await new TestClient(first.url).adminLogin({ username: 'admin', password: password! });
    expect(login.status).toBe(200);
    expect(await first.stop()).toBe(0);
    expect(await readdir(dataDir)).not.toContain('db.lock');

    const second = await startServerProcess(env);
    expect(second.output()).not.toContain('Admin account created');
    const again = await new TestClient(second.url).adminLogin({ username: 'admin', password: password! });
    expect(again.status).toBe(200);
    expect(await second.stop()).toBe(0);
  });

  it('refuses to start with a bad variable, naming it in one line', async () => {
    await expect(startServerProcess({ OPEN_TZ: 'Nowhere/City' })).rejects.toThrow(
      /Invalid OPEN_TZ="Nowhere\/City": unknown IANA time zone/,
    );
  });

  it('on a terminal: readable log lines and a first screen with the URL, sign-ins and where data lives', async () => {
    const dataDir = await tempDir('lectern-tty-');
    const { stdout } = await startUntil(
      /Log lines follow/,
      { DATA_DIR: dataDir, OPEN_HOURS: 'always' },
      { tty: true },
    );
    const url = /is ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
    expect(url).toBeTruthy();
    expect(stdout).toMatch(new RegExp(`Admin sign-in +${url}/adminlogin`));
    expect(stdout).toMatch(/admin \/ \S{14} +\(generated: shown only this once\)/);
    expect(stdout).toMatch(new RegExp(`Demo student +${url}/`));
    expect(stdout).toMatch(/student \/ \S+ +\(first sign-in asks for a code/);
    expect(stdout).toContain(`database  ${path.join(dataDir, 'db')}  (embedded PostgreSQL)`);
    expect(stdout).toContain(`media     ${path.join(dataDir, 'media')}`);
    expect(stdout).toContain(`outbox    ${path.join(dataDir, 'outbox')}`);
    expect(stdout).toMatch(/INFO.*Server listening at/);
    expect(stdout).not.toContain('{"level"');
  });

  it('piped, or with LOG_FORMAT=json: JSON lines only on stdout, the generated password once on stderr', async () => {
    for (const [tty, extra] of [
      [false, {}],
      [true, { LOG_FORMAT: 'json' }],
    ] as const) {
      const dataDir = await tempDir('lectern-json-');
      const env = { DATA_DIR: dataDir, SEED_DEMO: 'false', OPEN_HOURS: 'always', ...extra };
      const { stdout, stderr } = await startUntil(/is ready/, env, { tty });
      // On a terminal `script` merges stderr into stdout: the password line is the one plain line there.
      const lines = stdout.split(/\r?\n/).filter((l) => l.trim() && !l.startsWith('Admin account created'));
      const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const ready = records.find((r) => r.msg === 'Lectern is ready');
      expect(ready).toMatchObject({ database: path.join(dataDir, 'db'), media: path.join(dataDir, 'media') });
      expect(ready!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(`${stdout}${stderr}`).toMatch(/Admin account created: admin \/ \S{14} {2}\(shown once\)/);
      if (!tty) expect(stdout).not.toContain('Admin account created');
    }
  });

  it('refuses a bad LOG_FORMAT, naming it in one line', async () => {
    await expect(startServerProcess({ LOG_FORMAT: 'fancy' })).rejects.toThrow(/Invalid LOG_FORMAT="fancy": /);
  });

  /** The lines a server that refused to start printed (startServerProcess's error carries them). */
  async function refusal(env: Record<string, string>): Promise<string[]> {
    const error = await startServerProcess({ SEED_DEMO: 'false', ...env }).then(
      () => new Error('it started'),
      (e: Error) => e,
    );
    return error.message.split('\n').slice(1).filter(Boolean);
  }

  it.runIf(process.env.S3_ENDPOINT)(
    'refuses to start on a bucket it cannot use: one line naming the variable, no stack trace',
    async () => {
      const s3 = { MEDIA_STORE: 's3', ...s3Env('lectern-no-such-bucket') };
      expect(await refusal({ MEDIA_STORE: 's3' })).toEqual([
        expect.stringMatching(/^Missing S3_BUCKET: MEDIA_STORE=s3 needs a bucket/),
      ]);
      expect(await refusal({ ...s3, S3_ACCESS_KEY_ID: '' })).toEqual([
        expect.stringMatching(/^Missing S3_ACCESS_KEY_ID: /),
      ]);
      expect(await refusal(s3)).toEqual([
        expect.stringMatching(/^S3_BUCKET=lectern-no-such-bucket: no such bucket/),
      ]);
      expect(await refusal({ ...s3, S3_SECRET_ACCESS_KEY: 'not-the-secret' })).toEqual([
        expect.stringMatching(
          /^S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: the bucket .* refuses these credentials/,
        ),
      ]);
      const lines = await refusal({ ...s3, S3_ENDPOINT: 'http://127.0.0.1:9' });
      expect(lines).toEqual([
        expect.stringMatching(/^S3_ENDPOINT=http:\/\/127.0.0.1:9: the bucket .* cannot be reached/),
      ]);
      expect(lines.join('')).not.toContain('not-the-secret');
    },
  );

  it('refuses a signing key shorter than 32 bytes, naming where it came from, in one line', async () => {
    const dataDir = await tempDir('lectern-main-');
    const file = path.join(dataDir, 'signing.key');
    await writeFile(file, 'a1b2c3\n');
    expect(await refusal({ DATA_DIR: dataDir })).toEqual([
      expect.stringMatching(
        /^Invalid DATA_DIR\/signing.key \(.*signing.key\): 3 bytes, a signing key needs at least 32;/,
      ),
    ]);
    await writeFile(file, '');
    expect(await refusal({ DATA_DIR: dataDir })).toEqual([
      expect.stringMatching(
        /^Invalid DATA_DIR\/signing.key \(.*\): 0 bytes, a signing key needs at least 32;/,
      ),
    ]);
    await writeFile(file, 'not a key at all');
    expect(await refusal({ DATA_DIR: dataDir })).toEqual([
      expect.stringMatching(/^Invalid DATA_DIR\/signing.key \(.*\): expected the key in hex;/),
    ]);
    expect(await refusal({ DATA_DIR: dataDir, SIGNING_KEY: 'abc' })).toEqual([
      expect.stringMatching(/^Invalid SIGNING_KEY="abc": must be at least 32 characters/),
    ]);
    // Nothing was started: no database made beside the refused key.
    expect(await readdir(dataDir)).toEqual(['signing.key']);
  });

  it('refuses WEB_CONCURRENCY > 1 on the embedded database, in one line', async () => {
    const dataDir = await tempDir('lectern-main-');
    expect(await refusal({ DATA_DIR: dataDir, WEB_CONCURRENCY: '2' })).toEqual([
      expect.stringMatching(/^Invalid WEB_CONCURRENCY=2: more than one process needs PostgreSQL/),
    ]);
  });

  it.skipIf(!testEngines().includes('postgres'))(
    'WEB_CONCURRENCY=2 on PostgreSQL: two HTTP processes share the port, one killed is replaced',
    async () => {
      const database = await createTestDatabase('postgres', { fresh: true });
      const dataDir = await tempDir('lectern-main-');
      const server = await startServerProcess({
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        WEB_CONCURRENCY: '2',
        OPEN_HOURS: 'always',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
      });
      try {
        const workers = (): string[] => {
          try {
            return execFileSync('pgrep', ['-P', String(server.child.pid)], { encoding: 'utf8' })
              .split('\n')
              .filter(Boolean);
          } catch {
            return []; // pgrep exits 1 when there is none
          }
        };
        const pids = await waitFor(() => (workers().length === 2 ? workers() : undefined));
        // Both listening (each logs it) before one dies: else the port closes with the last listener.
        await waitFor(() => (server.output().split('Server listening').length > 2 ? true : undefined));
        expect(server.output()).toContain('WEB_CONCURRENCY=2: HTTP processes share port');
        const password = server.output().match(/Admin account created: admin \/ (\S+)/)?.[1];
        // A session made through one process works through the other (round robin over connections).
        const admin = new TestClient(server.url);
        expect((await admin.adminLogin({ username: 'admin', password: password! })).status).toBe(200);
        for (let i = 0; i < 6; i++) expect((await admin.get('/api/admin/video/editlist')).status).toBe(200);
        process.kill(Number(pids[0]), 'SIGKILL');
        const replaced = await waitFor(() => {
          const now = workers();
          return now.length === 2 && !now.includes(pids[0]!) ? now : undefined;
        });
        expect(replaced).toContain(pids[1]);
        // The survivor kept the port open all along: a new connection is answered (fetch could
        // reuse a kept-alive one to the killed process, closed under it).
        expect(await statusOnNewConnection(`${server.url}/api/time`)).toBe(200);
      } finally {
        expect(await server.stop()).toBe(0);
        await database.drop();
      }
    },
  );
});
