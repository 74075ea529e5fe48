import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import tar from 'tar-stream';
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
  hash.update('lean copies'); // what settleForCopies and leanTar leave out
  return hash.digest('hex').slice(0, 12);
}

const CACHE = path.resolve('node_modules/.cache/lectern-tests');

/**
 * What a copy of the migrated school can do without, and the copies are many (every in-process
 * test server loads the image, every embedded child server copies the folder), on a machine where
 * each fresh page of memory costs a fault: PGlite's image was 42 MB, of which a 16 MB WAL segment
 * (mostly the migrations' records, none needed after a checkpoint) and the two template databases
 * (15 MB: the tests never create a database in PGlite). Lean, it is about a quarter of that and a
 * copy loads in half the CPU time. Still a database Postgres made: only files it never reads again.
 */
interface Unused {
  /** `base/<oid>` of the template databases. */
  templates: string[];
  /** The WAL segment the checkpoint below is in; every other segment is past or recycled. */
  walSegment: string;
}

/** A new WAL segment and a checkpoint in it, so the records before it are not needed to start. */
async function settleForCopies(client: PGlite): Promise<Unused> {
  await client.query('select pg_switch_wal()');
  await client.query('checkpoint');
  const segment = await client.query<{ name: string }>(
    'select pg_walfile_name(pg_current_wal_insert_lsn()) as name',
  );
  const templates = await client.query<{ oid: number }>('select oid from pg_database where datistemplate');
  return { templates: templates.rows.map((r) => `base/${r.oid}`), walSegment: segment.rows[0]!.name };
}

const WAL_PAGE = 8192;

/** The written part of a WAL segment: up to its last non-zero page (a new segment is zero-filled). */
function writtenWal(segment: Buffer): Buffer {
  let end = segment.length;
  while (end > 0 && segment[end - 1] === 0) end--;
  return segment.subarray(0, Math.ceil(end / WAL_PAGE) * WAL_PAGE);
}

/** Where a data-folder path goes in the lean copy: dropped, or kept (a WAL segment cut to its written part). */
function leanPath(relative: string, unused: Unused): 'drop' | 'wal' | 'keep' {
  const name = relative.replace(/^\/+/, '');
  if (unused.templates.some((dir) => name === dir || name.startsWith(`${dir}/`))) return 'drop';
  const wal = /^pg_wal\/([0-9A-F]{24})$/.exec(name);
  if (wal) return wal[1] === unused.walSegment ? 'wal' : 'drop';
  return 'keep';
}

/** `dumpDataDir`'s tar without what a copy never reads. */
async function leanTar(image: Buffer, unused: Unused): Promise<Buffer> {
  const extract = tar.extract();
  const pack = tar.pack();
  const packed = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  })();
  Readable.from([image]).pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const kind = leanPath(entry.header.name, unused);
    if (kind === 'drop') continue;
    const body = kind === 'wal' ? writtenWal(Buffer.concat(chunks)) : Buffer.concat(chunks);
    pack.entry({ ...entry.header, size: body.length }, body);
  }
  pack.finalize();
  return packed;
}

/** The same for the folder a closed embedded database leaves (its shutdown checkpoint is in the same segment). */
async function leanFolder(dir: string, unused: Unused): Promise<void> {
  for (const template of unused.templates)
    await rm(path.join(dir, template), { recursive: true, force: true });
  for (const name of await readdir(path.join(dir, 'pg_wal'))) {
    const file = path.join(dir, 'pg_wal', name);
    const kind = leanPath(`pg_wal/${name}`, unused);
    if (kind === 'drop') await rm(file, { recursive: true, force: true });
    if (kind === 'wal') await truncate(file, writtenWal(await readFile(file)).length);
  }
}
let image: Promise<Blob> | undefined;

/** The migrated PGlite image (PGlite's `dumpDataDir`), made once per schema on this machine. */
export function migratedPgliteImage(): Promise<Blob> {
  image ??= (async () => {
    const file = path.join(CACHE, `pglite-${schemaHash()}.tar`);
    if (!existsSync(file)) {
      const database = await openDatabase({ url: 'memory://', dataDir: CACHE });
      try {
        const client = (database.db as unknown as { $client: PGlite }).$client;
        const unused = await settleForCopies(client);
        const dump = await client.dumpDataDir('none');
        await mkdir(CACHE, { recursive: true });
        // Written aside and renamed: a worker never reads half an image another is writing.
        const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
        await writeFile(temp, await leanTar(Buffer.from(await dump.arrayBuffer()), unused));
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
      const unused = await settleForCopies((database.db as unknown as { $client: PGlite }).$client);
      await database.close();
      try {
        await leanFolder(path.join(building, 'db'), unused);
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
