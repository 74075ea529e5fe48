import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratedPgliteImage, migratedPostgresTemplate } from './school-image';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** DATABASE_URL for the app under test. */
  url: string;
  /** PGlite: the migrated image to open `memory://` from (openRuntime's `databaseImage`); none when fresh. */
  image?: Blob;
  drop(): Promise<void>;
}

/** The engines API tests run on: in-memory PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testEngines(): ('pglite' | 'postgres')[] {
  if (process.env.CI && !process.env.TEST_DATABASE_URL) {
    throw new Error('CI runs the API tests on PostgreSQL too: set TEST_DATABASE_URL');
  }
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabaseOptions {
  /** The PostgreSQL server (TEST_DATABASE_URL by default). */
  server?: string;
  /**
   * An empty database that Lectern migrates itself, for tests whose subject is migrating (first
   * start, upgrades, restores into an empty database, nodes starting together). By default a test
   * gets a copy of one migrated school (test/support/school-image.ts).
   */
  fresh?: boolean;
}

/**
 * A database of its own on `engine`: PGlite in memory, or a throwaway PostgreSQL database (on
 * `server`) dropped afterwards; migrated already unless `fresh`.
 */
export async function createTestDatabase(
  engine: 'pglite' | 'postgres',
  { server = process.env.TEST_DATABASE_URL, fresh = false }: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  if (engine === 'pglite')
    return {
      name: 'pglite',
      url: 'memory://',
      image: fresh ? undefined : await migratedPgliteImage(),
      drop: async () => {},
    };
  const admin = server;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const template = fresh ? undefined : await migratedPostgresTemplate(admin);
  const dbName = `lectern_t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${dbName}${template ? ` template ${template}` : ''}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${dbName}`;
  return {
    name: 'postgres',
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
    },
  };
}

/**
 * A benchmark's database: a throwaway PostgreSQL database on BENCH_DATABASE_URL (else
 * TEST_DATABASE_URL), or PGlite when neither is set or BENCH_DATABASE_URL=embedded.
 */
export function benchDatabase(): Promise<TestDatabase> {
  const chosen = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const postgres = chosen && chosen !== 'embedded' ? chosen : undefined;
  return createTestDatabase(postgres ? 'postgres' : 'pglite', { server: postgres });
}
