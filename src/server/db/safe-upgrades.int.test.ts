import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '../../../test/support/databases';
import { runCli, serverCommand } from '../../../test/support/processes';
import { openDatabase } from './client';
import { knownMigrations, SchemaTooNewError, schemaState } from './migration-state';
import { applyPostDeploy, pendingPostDeploy } from './post-deploy';

/** A database a newer Lectern migrated: one more row in drizzle's table, after this code's last. */
async function addFutureMigration(url: string | undefined, dataDir: string) {
  const database = await openDatabase({ url, dataDir });
  const last = knownMigrations().at(-1)!;
  await database.db.execute(
    sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-the-future', ${last.when + 60_000})`,
  );
  await database.close();
}

describe.each(testEngines())('safe upgrades (%s)', (engine) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  /** A persistent database of the engine (PGlite on disk: memory:// cannot be opened twice). */
  async function freshDatabase(): Promise<{ url: string | undefined; dataDir: string }> {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-upgrade-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    if (engine === 'pglite') return { url: undefined, dataDir };
    const db: TestDatabase = await createTestDatabase('postgres', { fresh: true });
    cleanup.push(() => db.drop());
    return { url: db.url, dataDir };
  }

  it('refuses to open a database whose schema is newer than this code, saying so in one line', async () => {
    const { url, dataDir } = await freshDatabase();
    const fresh = await openDatabase({ url, dataDir });
    expect(await schemaState(fresh.db)).toEqual({ pending: [], unknown: 0 });
    await fresh.close();
    await addFutureMigration(url, dataDir);

    const refused = await openDatabase({ url, dataDir }).then(
      (d) => d.close().then(() => undefined),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SchemaTooNewError);
    expect((refused as Error).message).toMatch(
      /^The database schema is newer than this version of Lectern \(1 migration after \d{4}_\w+ that this code does not have\)/,
    );
    expect((refused as Error).message).not.toContain('\n');

    // The server process stops at start with that line (exit 2), as it does for a bad setting;
    // the doctor names it.
    const env = { DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}), SEED_DEMO: 'false', PORT: '0' };
    const server = spawn(process.execPath, serverCommand('main'), {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    server.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => server.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(/^The database schema is newer than this version of Lectern [^\n]*$/);
    const doctor = await runCli(['doctor'], env);
    expect(doctor.stdout).toMatch(/fail\s+migrations\s+.*newer than this code/);
    expect(doctor.code).toBe(1);
  }, 120_000);

  it('applies post-deploy migrations only when asked, once each, in order', async () => {
    const { url, dataDir } = await freshDatabase();
    const folder = path.join(dataDir, 'post-deploy');
    await mkdir(folder);
    await writeFile(
      path.join(folder, '0001_drop_note.sql'),
      'ALTER TABLE "videos" ADD COLUMN "scratch" text;\n--> statement-breakpoint\nALTER TABLE "videos" DROP COLUMN "scratch";',
    );
    await writeFile(path.join(folder, '0002_notes.sql'), 'CREATE TABLE "scratch_notes" ("id" integer);');
    const database = await openDatabase({ url, dataDir });
    try {
      expect(await pendingPostDeploy(database.db, folder)).toEqual(['0001_drop_note', '0002_notes']);
      expect(await applyPostDeploy(database, () => {}, folder)).toEqual(['0001_drop_note', '0002_notes']);
      expect(await pendingPostDeploy(database.db, folder)).toEqual([]);
      expect(await applyPostDeploy(database, () => {}, folder)).toEqual([]);
      await database.db.execute(sql`select count(*) from scratch_notes`);
    } finally {
      await database.close();
    }
  }, 60_000);
});
