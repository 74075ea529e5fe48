import { asc, eq, sql } from 'drizzle-orm';
import type { AnalyticsCheckpoint } from '../../contract/analytics';
import { normaliseOutput, type AnswerCount, type CheckpointStats } from '../../contract/checkpoints';
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

/** The answers given to a checkpoint: each distinct answer (as JSON) with its attempts, most frequent first. */
type GivenAnswer = { answer: string; count: number; correct: boolean };

/** Per checkpoint of a video: how students fared (CheckpointStats) and every distinct answer given. */
async function checkpointStats(
  db: Db,
  videoId: string,
): Promise<Map<string, { stats: CheckpointStats; given: GivenAnswer[] }>> {
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
  const out = new Map<string, { stats: CheckpointStats; given: GivenAnswer[] }>();
  for (const r of counts)
    out.set(String(r.id), {
      stats: {
        reached: Number(r.reached),
        answered: Number(r.answered),
        passed: Number(r.passed),
        firstTryCorrect: Number(r.firstTryCorrect),
        attempts: Number(r.attempts),
        distribution: [],
      },
      given: [],
    });
  for (const g of given) {
    const found = out.get(g.id);
    if (!found) continue;
    const answer = { answer: g.answer, count: Number(g.count), correct: !!g.correct };
    found.given.push(answer);
    if (found.stats.distribution.length < 10) found.stats.distribution.push(answer);
  }
  return out;
}

/** Output answers listed in the analytics: the most common ones. */
const TOP_OUTPUTS = 5;

/**
 * The answers' distribution on the retention chart: for a choice checkpoint, per choice (in order)
 * the attempts that picked it and whether it is a right one; for an output checkpoint, the
 * TOP_OUTPUTS most common outputs, normalised as the judge normalises them, and whether accepted.
 */
function answerCounts(row: typeof checkpoints.$inferSelect, given: GivenAnswer[]): AnswerCount[] {
  if (row.kind === 'output') {
    const accepted = new Set(row.answers.map((a) => normaliseOutput(String(a))));
    const counts = new Map<string, number>();
    for (const g of given) {
      const text = JSON.parse(g.answer) as unknown;
      if (typeof text !== 'string') continue;
      const key = normaliseOutput(text);
      counts.set(key, (counts.get(key) ?? 0) + g.count);
    }
    return [...counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TOP_OUTPUTS)
      .map(([answer, count]) => ({ answer, count, correct: accepted.has(answer) }));
  }
  const picked = row.choices.map(() => 0);
  for (const g of given) {
    const answer = JSON.parse(g.answer) as unknown;
    for (const n of new Set(Array.isArray(answer) ? answer : [answer]))
      if (typeof n === 'number' && n in picked) picked[n]! += g.count;
  }
  return row.choices.map((choice, n) => ({
    answer: choice,
    count: picked[n]!,
    correct: row.answers.includes(n),
  }));
}

/** The video's checkpoints in time order, each with how students fared. */
export async function checkpointsWithStats(
  db: Db,
  videoId: string,
): Promise<{ row: typeof checkpoints.$inferSelect; stats: CheckpointStats; given: GivenAnswer[] }[]> {
  const rows = await db
    .select()
    .from(checkpoints)
    .where(eq(checkpoints.videoId, videoId))
    .orderBy(asc(checkpoints.t), asc(checkpoints.createdAt));
  const stats = await checkpointStats(db, videoId);
  return rows.map((row) => ({ row, ...(stats.get(row.id) ?? { stats: NO_STATS, given: [] }) }));
}

/** The video's checkpoints with their figures, for the retention chart and CSV. */
export async function videoCheckpointFigures(db: Db, videoId: string): Promise<AnalyticsCheckpoint[]> {
  return (await checkpointsWithStats(db, videoId)).map(({ row, stats, given }) => {
    const { distribution: _, ...figures } = stats;
    return {
      _id: row.id,
      t: row.t,
      kind: row.kind,
      prompt: row.prompt,
      required: row.required,
      ...figures,
      distribution: answerCounts(row, given),
    };
  });
}
