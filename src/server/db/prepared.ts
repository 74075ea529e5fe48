import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './client';

interface DriverQueries {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Runs `query` on the database itself (never inside a transaction): on PostgreSQL as the named
 * prepared statement `name`, parsed and planned once per connection instead of at every call (the
 * progress save's statements are the hot path); on PGlite as is. The text of `query` must be the
 * same at every call with the same name: only its parameters may differ.
 */
export async function runPrepared<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const internal = db as unknown as { dialect: PgDialect; $client: DriverQueries };
  const { sql: text, params } = internal.dialect.sqlToQuery(query);
  const client = internal.$client;
  const result =
    client instanceof pg.Pool
      ? await client.query({ name, text, values: params })
      : await client.query(text, params);
  return result.rows as T[];
}
