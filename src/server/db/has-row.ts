import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** Whether `table` holds a row matching `where` (any row, without it): reads one row at most. */
export async function hasRow(db: Db, table: PgTable, where?: SQL): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(1);
  return row !== undefined;
}
