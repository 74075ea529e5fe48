import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/** Rows of a raw query (both drivers answer `{ rows }`). */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/**
 * A PostgreSQL array literal of uuids known to be well-formed (they come from the database): one
 * parameter for a list of any length, where one parameter per id costs more to plan than the query.
 */
export const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;
