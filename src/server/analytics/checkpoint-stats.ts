import { asc, eq, sql } from 'drizzle-orm';
import type { AnalyticsCheckpoint } from '../../contract/analytics';
import type { CheckpointStats } from '../../contract/checkpoints';
import type { Db } from '../db/client';
import { checkpoints } from '../db/schema';

// How students fared at a video's checkpoints (issue 39): for the staff's checkpoint list
// (checkpoints/checkpoints.ts) and the video analytics' retention chart and CSV. Here, below
// checkpoints/, since videos/ (which checkpoints/ uses) already reads analytics/.

/** A checkpoint nobody reached yet. */
const NO_STATS: CheckpointStats = {
  reached: 0,
  answered: 0,
  passed: 0,
  firstTryCorrect: 0,
  attempts: 0,
  distribution: [],
};

/** Per checkpoint of a video: how students fared (CheckpointStats), in three queries. */
async function checkpointStats(db: Db, videoId: string): Promise<Map<string, CheckpointStats>> {
  const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const counts = await rowsOf<Record<string, string | number>>(sql`
    select c.id,
      (select count(*) from video_progress p where p.video_id = c.video_id and p.watched_cells is not null
         and length(p.watched_cells) > floor(c.t)::int / 8
         and get_byte(p.watched_cells, floor(c.t)::int / 8) & (1 << (floor(c.t)::int % 8)) <> 0)::int as reached,
      (select count(distinct a.student_id) from checkpoint_attempts a where a.checkpoint_id = c.id)::int as answered,
      (select count(*) from checkpoint_states s where s.checkpoint_id = c.id and s.passed_at is not null)::int as passed,
      (select count(*) from checkpoint_attempts a where a.checkpoint_id = c.id)::int as attempts,
      (select count(*) from (select distinct on (a.student_id) a.correct from checkpoint_attempts a
         where a.checkpoint_id = c.id order by a.student_id, a.created_at, a.id) f where f.correct)::int as "firstTryCorrect"
    from checkpoints c where c.video_id = ${videoId}`);
  const given = await rowsOf<{ id: string; answer: string; correct: boolean; count: number }>(sql`
    select a.checkpoint_id as id, a.answer::text as answer, bool_or(a.correct) as correct, count(*)::int as count
    from checkpoint_attempts a join checkpoints c on c.id = a.checkpoint_id
    where c.video_id = ${videoId}
    group by a.checkpoint_id, a.answer::text
    order by count(*) desc, a.answer::text`);
  const out = new Map<string, CheckpointStats>();
  for (const r of counts)
    out.set(String(r.id), {
      reached: Number(r.reached),
      answered: Number(r.answered),
      passed: Number(r.passed),
      firstTryCorrect: Number(r.firstTryCorrect),
      attempts: Number(r.attempts),
      distribution: [],
    });
  for (const g of given) {
    const stats = out.get(g.id);
    if (stats && stats.distribution.length < 10)
      stats.distribution.push({ answer: g.answer, count: Number(g.count), correct: !!g.correct });
  }
  return out;
}

/** The video's checkpoints in time order, each with how students fared. */
export async function checkpointsWithStats(
  db: Db,
  videoId: string,
): Promise<{ row: typeof checkpoints.$inferSelect; stats: CheckpointStats }[]> {
  const rows = await db
    .select()
    .from(checkpoints)
    .where(eq(checkpoints.videoId, videoId))
    .orderBy(asc(checkpoints.t), asc(checkpoints.createdAt));
  const stats = await checkpointStats(db, videoId);
  return rows.map((row) => ({ row, stats: stats.get(row.id) ?? NO_STATS }));
}

/** The video's checkpoints with their figures, for the retention chart and CSV. */
export async function videoCheckpointFigures(db: Db, videoId: string): Promise<AnalyticsCheckpoint[]> {
  return (await checkpointsWithStats(db, videoId)).map(({ row, stats }) => {
    const { distribution: _, ...figures } = stats;
    return { _id: row.id, t: row.t, prompt: row.prompt, required: row.required, ...figures };
  });
}
