import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupMessages } from '../../contract/backups';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { auditEvents } from '../db/schema';
import { runDoctor } from '../wiring/doctor';
import { createTestDatabase, testEngines } from '../../../test/support/databases';
import { suiteTempDirs } from '../../../test/support/temp-dirs';
import { runCli } from '../../../test/support/processes';
import { seedMigratedPglite } from '../../../test/support/school-image';
import { later, TestServer } from '../../../test/support/test-server';
import { printBackupSummary } from './cli-commands';
import { openSegmentKey } from '../videos/video-secrets';
import { restoreBackup, runBackup, verifyBackup, listBackups, type BackupSummary } from './index';

const VIDEO = '33333333-3333-4333-8333-333333333333';
const HLS_KEY = 'aa'.repeat(16);
const PERIOD_KEY = 'bb'.repeat(16);
const FORENSIC = 'cc'.repeat(32);

/** An install never started, or started once (migrated) and never used. */
type Install = 'fresh' | 'started';

/**
 * A backup taken without BACKUP_PASSPHRASE, and what a restore does with a dump someone edited:
 * table data is loaded as data, and a line that is not data stops the restore.
 */
describe.each(testEngines())('a backup without a passphrase, and a dump someone edited (%s)', (engine) => {
  const tempDir = suiteTempDirs();
  const server = later<TestServer>('the server');
  let real: TestServer | undefined;
  let target = '';
  let summary: BackupSummary;

  beforeAll(async () => {
    real = await TestServer.start({ engine });
    server.set(real);
    target = await tempDir('lectern-backup-safety-');
    await server.createAdmin();
    await server.ctx.db
      .execute(sql`insert into videos (id, title, source_name, status, renditions, hls_key, forensic_secret)
      values (${VIDEO}, 'Keyed lecture', 'k.mp4', 'ready', '[180]', ${HLS_KEY}, ${FORENSIC})`);
    await server.ctx.db.execute(
      sql`insert into video_keys (video_id, period, key) values (${VIDEO}, 1, ${PERIOD_KEY})`,
    );
    await server.ctx.db
      .execute(sql`insert into courses (batch, course_code, name, description, start_date, end_date)
      values (2026, 'SQL1', 'Course one', 'plain', '2026-01-01', '2026-12-31')`);
    summary = await runBackup(server.ctx, { target });
  });
  afterAll(async () => {
    await real?.close();
  });

  /**
   * An empty install to restore into: a DATA_DIR of its own and, on PostgreSQL, a database of its own.
   * Never started (`fresh`, the restore migrates it from nothing), or `started` once and never used (its
   * schema made, no row or object), which the restore takes the same way and costs no migration.
   */
  async function emptyInstall(prefix: string, env: Record<string, string> = {}, state: Install = 'fresh') {
    const dataDir = await tempDir(prefix);
    const fresh = state === 'fresh';
    const database = engine === 'postgres' ? await createTestDatabase('postgres', { fresh }) : undefined;
    if (engine === 'pglite' && !fresh) await seedMigratedPglite(dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...env,
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    return { dataDir, database, config };
  }

  /** Restores backup `id` into an empty install; answers the error (if any), the lines said and a look at the result. */
  async function restoreInto(state: Install, id = summary.id) {
    const { dataDir, database, config } = await emptyInstall('lectern-restored-', {}, state);
    const lines: string[] = [];
    const logLines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
    const error = await restoreBackup(config, id, {
      from: target,
      signingKey: server.ctx.signingKey.toString('hex'),
      onLine: (l) => lines.push(l),
      logger: logger as unknown as FastifyBaseLogger,
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    const opened = await openDatabase({ url: config.databaseUrl, dataDir, migrate: false });
    const query = async <T>(text: string) => (await opened.db.execute(sql.raw(text))).rows as T[];
    let open = true;
    /** Closes this test's connection (the embedded database is one process's), the database stays. */
    const release = async () => {
      if (open) await opened.close();
      open = false;
    };
    return {
      error,
      lines,
      /** The JSON log lines of the restore (its security event). */
      logged: () => logLines.map((l) => JSON.parse(l) as Record<string, unknown>),
      config,
      query,
      release,
      async close() {
        await release();
        await database?.drop();
      },
    };
  }

  it('holds no video key, forensic secret or signing key, and the output, the doctor and the Backups screen say restored videos need media:rekey', async () => {
    expect(summary).toMatchObject({ signingKeyIncluded: false, videosWithoutKeys: 1 });
    const files = await readdir(target, { recursive: true, withFileTypes: true });
    for (const entry of files.filter((f) => f.isFile())) {
      const text = (await readFile(path.join(entry.parentPath, entry.name))).toString('latin1');
      for (const secret of [HLS_KEY, PERIOD_KEY, FORENSIC, server.ctx.signingKey.toString('hex')])
        expect(text.includes(secret), `${entry.name} holds a secret`).toBe(false);
    }
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      printBackupSummary(summary);
      expect(log.mock.calls.flat().join('\n')).toContain(
        '1 video restored from this backup will need `npm run cli -- media:rekey` before it plays',
      );
    } finally {
      log.mockRestore();
    }
    expect((await listBackups(server.ctx, target))[0]).toMatchObject({
      encrypted: false,
      videosWithoutKeys: 1,
    });
    const { client } = await server.adminClient();
    expect((await client.get('/api/admin/backups')).body.keysLeftOut).toBe(backupMessages.keysLeftOut);
    expect((await verifyBackup(server.ctx, summary.id, { target })).videosWithoutKeys).toBe(1);

    const restored = await restoreInto('fresh');
    try {
      expect(restored.error).toBeUndefined();
      expect(restored.lines.join('\n')).toContain('media:rekey');
      expect(await restored.query(`select hls_key, forensic_secret from videos`)).toEqual([
        { hls_key: null, forensic_secret: null },
      ]);
      expect(await restored.query(`select * from video_keys`)).toEqual([]);
      // The restore is a security event: an audit row in the restored install and a JSON log line,
      // naming the backup, where it came from, who ran it and the outcome, never a secret.
      const event = {
        backupId: summary.id,
        from: target,
        by: 'cli',
        outcome: 'restored',
        replace: false,
        signingKey: 'given',
        videosWithoutKeys: 1,
      };
      const audit = await restored.query<{ action: string; actor_id: string | null; details: object }>(
        `select action, actor_id, details from audit_events where action like 'backup.%'`,
      );
      expect(audit).toMatchObject([{ action: 'backup.restored', actor_id: null, details: event }]);
      const logged = restored.logged().filter((l) => l.msg === 'security event');
      expect(logged).toMatchObject([{ security: 'backup.restored', level: 40, ...event }]);
      const signingKeyHex = server.ctx.signingKey.toString('hex');
      for (const text of [JSON.stringify(audit), JSON.stringify(logged)])
        expect(text).not.toContain(signingKeyHex);
      // The doctor of the restored install names the keyless video.
      await restored.release();
      const doctor = await runDoctor(restored.config, {});
      expect(doctor.find((l) => l.name === 'backups')).toMatchObject({
        verdict: 'warn',
        fix: 'npm run cli -- media:rekey',
      });
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('is refused by backup:verify and restore of a school with BACKUP_PASSPHRASE, the refusal naming --allow-unsealed, and used with it', async () => {
    const dataDir = await tempDir('lectern-restored-unsealed-');
    const database = engine === 'postgres' ? await createTestDatabase('postgres') : undefined;
    const env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      BACKUP_PASSPHRASE: 'the-school-passphrase',
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    const restore = [
      'restore',
      summary.id,
      '--from',
      target,
      '--signing-key',
      server.ctx.signingKey.toString('hex'),
    ];
    const verify = ['backup:verify', summary.id, '--from', target];
    // Taken without a passphrase, or its seal removed: the school cannot tell the two apart.
    const refusal = `Backup ${summary.id} is not sealed (taken without BACKUP_PASSPHRASE), though this school's backups are: nothing proves Lectern wrote it as it is, or that no one removed its seal. Add --allow-unsealed to use it anyway.\n`;
    try {
      for (const args of [verify, restore])
        expect(await runCli(args, env), args[0]).toMatchObject({ code: 2, stderr: refusal });
      expect(await readdir(dataDir)).toEqual([]);

      const verified = await runCli([...verify, '--allow-unsealed'], env);
      expect(verified).toMatchObject({
        code: 0,
        stdout: expect.stringContaining(`Backup ${summary.id} is sound`),
      });
      const restored = await runCli([...restore, '--allow-unsealed'], env);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`Backup ${summary.id} is not sealed`);
      const opened = await openDatabase({ url: database?.url, dataDir, migrate: false });
      try {
        const audit = await opened.db.execute(
          sql`select details from audit_events where action = 'backup.restored'`,
        );
        expect(audit.rows).toMatchObject([{ details: { backupId: summary.id, allowUnsealed: true } }]);
      } finally {
        await opened.close();
      }
    } finally {
      await database?.drop();
    }
  }, 180_000);

  // The embedded database is the running server's own (one process): PostgreSQL shows it.
  it.skipIf(engine === 'pglite')(
    'writes a refused restore over a running install to its audit log and as a log line',
    async () => {
      const logLines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
      const config = { ...server.ctx.config, dataDir: await tempDir('lectern-restore-refused-') };
      await expect(
        restoreBackup(config, summary.id, {
          from: target,
          signingKey: server.ctx.signingKey.toString('hex'),
          logger: logger as unknown as FastifyBaseLogger,
          by: 'test',
        }),
      ).rejects.toThrow(/This install is not empty/);
      const rows = await server.ctx.db
        .select({ details: auditEvents.details })
        .from(auditEvents)
        .where(eq(auditEvents.action, 'backup.restore-failed'));
      expect(rows[0]?.details).toMatchObject({
        backupId: summary.id,
        by: 'test',
        outcome: 'failed',
        reason: expect.stringMatching(/^This install is not empty/),
      });
      const logged = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(logged).toMatchObject([
        { msg: 'security event', security: 'backup.restore-failed', outcome: 'failed' },
      ]);
    },
  );

  it('does not run a statement smuggled into the dump: a line that is not data stops the restore, SQL in a value is data', async () => {
    const manifestFile = path.join(target, 'backups', summary.id, 'manifest.json');
    const original = await readFile(manifestFile);
    const envelope = JSON.parse(original.toString()) as { manifest: string };
    const manifest = JSON.parse(envelope.manifest) as { database: { sha256: string; size: number } };
    const objectFile = (sha: string) => path.join(target, 'objects', sha.slice(0, 2), sha);
    const dump = (await readFile(objectFile(manifest.database.sha256))).toString();
    const marker = path.join(tmpdir(), `lectern-pwned-${randomBytes(4).toString('hex')}`);
    const sqlPayload = `x'); CREATE TABLE pwned (a int); COPY (SELECT 1) TO PROGRAM 'touch ${marker}'; --`;
    const lines = dump.split('\n');
    const endAt = lines.findIndex((l) => l.startsWith('{"end"'));
    const course = lines.findIndex((l) => l.startsWith('{"table":"public.courses"'));
    const variants: [name: string, text: string, outcome: RegExp][] = [
      [
        'SQL lines',
        [
          ...lines.slice(0, endAt),
          'CREATE TABLE pwned (a int);',
          `COPY (SELECT 1) TO PROGRAM 'touch ${marker}';`,
          ...lines.slice(endAt),
        ].join('\n'),
        /is not table data \(line \d+: not JSON\)/,
      ],
      [
        'a table name',
        dump.replace(
          '{"table":"public.courses"',
          `{"table":"public.courses (id) VALUES (NULL); CREATE TABLE pwned (a int); --"`,
        ),
        /is not table data .*is not one of this schema's/,
      ],
      [
        'a column name',
        dump.replace(
          /(\{"table":"public\.courses","columns":\[)"id"/,
          `$1"id\\") VALUES (NULL); CREATE TABLE pwned (a int); --"`,
        ),
        /is not table data .*columns of public\.courses that are not its own/,
      ],
      [
        'a value',
        lines
          .map((l, i) => (i === course + 1 ? l.replace('"Course one"', JSON.stringify(sqlPayload)) : l))
          .join('\n'),
        /the rows of public\.courses differ from the manifest's checksum/,
      ],
    ];
    try {
      for (const [name, text, outcome] of variants) {
        // Without a passphrase nothing is sealed: whoever edits the dump can fix the manifest's hash too.
        const sha256 = createHash('sha256').update(text).digest('hex');
        await mkdir(path.dirname(objectFile(sha256)), { recursive: true });
        await writeFile(objectFile(sha256), text);
        manifest.database = { ...manifest.database, sha256, size: Buffer.byteLength(text) };
        await writeFile(manifestFile, JSON.stringify({ ...envelope, manifest: JSON.stringify(manifest) }));
        // Each variant is refused on its own merits: the install's first migration is the other tests' subject.
        const restored = await restoreInto('started');
        try {
          expect(restored.error?.message, name).toMatch(outcome);
          expect(
            await restored.query(`select count(*)::int as n from pg_tables where tablename = 'pwned'`),
            name,
          ).toEqual([{ n: 0 }]);
          expect(existsSync(marker), name).toBe(false);
          if (name === 'a value')
            expect(await restored.query(`select name from courses`)).toEqual([{ name: sqlPayload }]);
        } finally {
          await restored.close();
        }
      }
    } finally {
      await writeFile(manifestFile, original);
    }
  }, 180_000);

  it('restores and verifies a backup of the format before this change (its SQL runs only in a throwaway database)', async () => {
    const fixture = path.join(import.meta.dirname, '../../../test/fixtures/backup-v1');
    const id = '20261126T180744Z-24ca';
    await cp(fixture, target, { recursive: true });
    const restoredKey = 'fixture-signing-key-of-at-least-32-chars!!';
    expect((await listBackups(server.ctx, target)).map((b) => b.id)).toContain(id);
    expect(await verifyBackup(server.ctx, id, { target })).toMatchObject({ rows: 5, sealed: false });
    const { dataDir, database, config } = await emptyInstall('lectern-restored-v1-', {
      BACKUP_PASSPHRASE: 'fixture-passphrase-v1',
    });
    try {
      // Format 1 had no seal: under a passphrase it is restored only when asked for.
      await expect(restoreBackup(config, id, { from: target })).rejects.toThrow(
        `Backup ${id} is not sealed (taken by an older Lectern)`,
      );
      const report = await restoreBackup(config, id, { from: target, allowUnsealed: true });
      expect(report).toMatchObject({ rows: 5, signingKey: 'from-backup', videosWithoutKeys: 0 });
      expect(await readFile(path.join(dataDir, 'signing.key'), 'utf8')).toBe(
        Buffer.from(restoredKey).toString('hex'),
      );
      const opened = await openDatabase({ url: config.databaseUrl, dataDir });
      try {
        expect((await opened.db.execute(sql`select username from users`)).rows).toEqual([
          { username: 'fixture-admin' },
        ]);
        // The fixture's key was stored plain (before wrapping): the restore wrapped it under the restored signing key.
        expect(report.secretsWrapped).toBeGreaterThanOrEqual(1);
        const rows = (await opened.db.execute(sql`select video_id, period, key from video_keys`)).rows as {
          video_id: string;
          period: number;
          key: string;
        }[];
        expect(rows).toMatchObject([{ period: 0, key: expect.stringMatching(/^w1\./) }]);
        expect(
          openSegmentKey(Buffer.from(restoredKey), rows[0]!.video_id, rows[0]!.key).toString('hex'),
        ).toBe('00112233445566778899aabbccddeeff');
      } finally {
        await opened.close();
      }
    } finally {
      await database?.drop();
    }
  }, 120_000);
});
