import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** DATABASE_URL for the app under test. */
  url: string;
  drop(): Promise<void>;
}

/** The engines API tests run on: in-memory PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testEngines(): ('pglite' | 'postgres')[] {
  if (process.env.CI && !process.env.TEST_DATABASE_URL) {
    throw new Error('CI runs the API tests on PostgreSQL too: set TEST_DATABASE_URL');
  }
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A fresh, empty database on `engine`; PostgreSQL gets a throwaway database (on the server of
 * `server`, TEST_DATABASE_URL by default) dropped afterwards.
 */
export async function createTestDatabase(
  engine: 'pglite' | 'postgres',
  server = process.env.TEST_DATABASE_URL,
): Promise<TestDatabase> {
  if (engine === 'pglite') return { name: 'pglite', url: 'memory://', drop: async () => {} };
  const admin = server;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const dbName = `lectern_t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${dbName}`);
  await client.end();
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
  return createTestDatabase(postgres ? 'postgres' : 'pglite', postgres);
}
