import { statfs } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { MetricSources } from './metrics';

/** A viewer counts as active while their player saved progress this recently (it saves every 10 s). */
export const ACTIVE_VIEWER_MS = 60_000;

/** What the scrape-time gauges read: the database, its pool, DATA_DIR's disk. */
export function runtimeSources(database: Database, clock: Clock, dataDir: string): MetricSources {
  return {
    async jobCounts() {
      const result = (await database.db.execute(
        sql`select type, status as state, count(*)::int as count from jobs group by type, status`,
      )) as unknown as { rows: { type: string; state: string; count: number }[] };
      return result.rows.map((r) => ({ ...r, count: Number(r.count) }));
    },
    async activeViewers() {
      const since = new Date(clock.now().getTime() - ACTIVE_VIEWER_MS).toISOString();
      const result = (await database.db.execute(
        sql`select count(*)::int as count from video_progress where updated_at > ${since}::timestamptz`,
      )) as unknown as { rows: { count: number }[] };
      return Number(result.rows[0]?.count ?? 0);
    },
    pool: () => database.poolStats?.(),
    async disk() {
      const fs = await statfs(dataDir);
      return { freeBytes: fs.bavail * fs.bsize, sizeBytes: fs.blocks * fs.bsize };
    },
  };
}
