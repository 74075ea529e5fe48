import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { changeStamps } from '../db/schema';

/** The topic whose stamp moves with courses, enrollments, videos' courses and students' names (migration 0002). */
export const ROSTERS = 'rosters';

/** Reads a topic's change stamp: one indexed row, prepared once. 0 before the topic's first change. */
export function stampReader(db: Db, topic: string): () => Promise<number> {
  const query = db
    .select({ stamp: changeStamps.stamp })
    .from(changeStamps)
    .where(eq(changeStamps.topic, topic))
    .limit(1)
    .prepare(`change_stamp_${topic}`);
  return async () => (await query.execute())[0]?.stamp ?? 0;
}

/**
 * A read model computed at most once per change stamp in this process; concurrent readers of the
 * same stamp share one computation. The stamp is read before the model, so a cached model is
 * never older than its stamp: a write that lands in between only costs one more computation.
 */
export function stampedCache<T>(
  readStamp: () => Promise<number>,
  compute: () => Promise<T>,
): () => Promise<T> {
  let entry: { stamp: number; value: Promise<T> } | undefined;
  return async () => {
    const stamp = await readStamp();
    if (entry?.stamp !== stamp) {
      const value = compute();
      entry = { stamp, value };
      // A failed computation is not remembered: the next reader tries again.
      value.catch(() => {
        if (entry?.value === value) entry = undefined;
      });
    }
    return entry.value;
  };
}
