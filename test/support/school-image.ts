import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/server/db/client';
import { migrationsFolder } from '../../src/server/db/migration-state';

/**
 * One migrated, empty school per schema, made once and copied for every test that only needs a
 * school to exist: PGlite's initdb and twenty migrations cost seconds per database, a copy a
 * fraction. Tests whose subject is migrating (first starts, upgrades, restores into an empty
 * database, nodes starting together) ask for a fresh database instead (`createTestDatabase`).
 */

/** Names this schema: the migrations' bytes and the PGlite build that reads the image. */
function schemaHash(): string {
  const hash = createHash('sha256');
  const folder = migrationsFolder();
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(folder, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(full));
  }
  const pglite = path.resolve('node_modules/@electric-sql/pglite/package.json');
  hash.update(JSON.parse(readFileSync(pglite, 'utf8')).version as string);
  return hash.digest('hex').slice(0, 12);
}

const CACHE = path.resolve('node_modules/.cache/lectern-tests');
let image: Promise<Blob> | undefined;

/** The migrated PGlite image (PGlite's `dumpDataDir`), made once per schema on this machine. */
export function migratedPgliteImage(): Promise<Blob> {
  image ??= (async () => {
    const file = path.join(CACHE, `pglite-${schemaHash()}.tar`);
    if (!existsSync(file)) {
      const database = await openDatabase({ url: 'memory://', dataDir: CACHE });
      try {
        const client = (database.db as unknown as { $client: PGlite }).$client;
        const dump = await client.dumpDataDir('none');
        await mkdir(CACHE, { recursive: true });
        // Written aside and renamed: a worker never reads half an image another is writing.
        const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
        await writeFile(temp, Buffer.from(await dump.arrayBuffer()));
        await rename(temp, file);
      } finally {
        await database.close();
      }
    }
    return new Blob([await readFile(file)]);
  })();
  return image;
}

let folder: Promise<string> | undefined;

/**
 * The migrated school as the folder an embedded server keeps in `DATA_DIR/db`, made once per schema
 * on this machine: a server process started on a copy skips PGlite's initdb (a child process of its
 * own) and every migration, about 3 of its 6 CPU-seconds to ready.
 */
export function migratedPgliteFolder(): Promise<string> {
  folder ??= (async () => {
    const dir = path.join(CACHE, `pglite-folder-${schemaHash()}`);
    if (!existsSync(dir)) {
      const building = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
      const database = await openDatabase({ url: undefined, dataDir: building });
      await database.close();
      try {
        // Renamed whole: a process never copies half a folder another is writing.
        await rename(path.join(building, 'db'), dir);
      } catch (error) {
        // Another process (a second Playwright worker) made it first: theirs is the same schema.
        if (!existsSync(dir)) throw error;
      } finally {
        await rm(building, { recursive: true, force: true });
      }
    }
    return dir;
  })();
  return folder;
}

/** Puts a copy of the migrated embedded school in `dataDir/db`, where a server with no DATABASE_URL opens it. */
export async function seedMigratedPglite(dataDir: string): Promise<void> {
  await cp(await migratedPgliteFolder(), path.join(dataDir, 'db'), { recursive: true });
}

const templates = new Map<string, Promise<string>>();

/**
 * The name of a migrated, empty database on the PostgreSQL server at `server`, made once per schema
 * and left for the next run: `CREATE DATABASE … TEMPLATE` copies it in a fraction of a migration.
 */
export function migratedPostgresTemplate(server: string): Promise<string> {
  let template = templates.get(server);
  if (!template) {
    template = makeTemplate(server);
    templates.set(server, template);
  }
  return template;
}

async function makeTemplate(server: string): Promise<string> {
  const name = `lectern_template_${schemaHash()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    // Migrated under another name, then renamed: nobody copies a template that is half made.
    const building = `lectern_building_${randomBytes(6).toString('hex')}`;
    await admin.query(`create database ${building}`);
    const url = new URL(server);
    url.pathname = `/${building}`;
    const database = await openDatabase({ url: url.toString(), dataDir: CACHE });
    await database.close();
    try {
      await admin.query(`alter database ${building} rename to ${name}`);
    } catch (error) {
      // Another process made it first: theirs is the same schema.
      await admin.query(`drop database if exists ${building}`);
      const again = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!again.rowCount) throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}
