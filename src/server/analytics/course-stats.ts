import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { uuidArray } from '../db/raw';

/**
 * Runs `change`, which moves videos into or out of `courseIds` (assigns, moves or deletes them), in
 * a transaction that then recounts those courses' student totals from the progress rows. Progress
 * saves keep course_watch_stats by increments; a video that leaves a course takes its rows' share
 * with it only through this.
 *
 * The totals table is locked against saves (SHARE ROW EXCLUSIVE: saves wait, reads do not) for the
 * whole transaction, and first. Without the lock a student's first save landing between the
 * recount's delete and insert made the insert fail on the duplicate key (a 500 for the admin who
 * assigned a video during an evening rush), and a save committed meanwhile could be counted twice
 * or lost. Taken after touching the video instead, it could deadlock with a save whose foreign-key
 * check waits on that video's row. Saves are never blocked when no course changes.
 */
export async function changingCourseVideos<T>(
  db: Db,
  courseIds: (string | null | undefined)[],
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  const ids = [...new Set(courseIds.filter((id): id is string => !!id))];
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    if (ids.length) await tx.execute(sql`lock table course_watch_stats in share row exclusive mode`);
    const result = await change(tx);
    if (ids.length) await recountCourses(tx, ids);
    return result;
  });
}

async function recountCourses(tx: Db, ids: string[]): Promise<void> {
  await tx.execute(sql`delete from course_watch_stats where course_id = any(${uuidArray(ids)}::uuid[])`);
  await tx.execute(sql`
    insert into course_watch_stats (course_id, student_id, videos_started, videos_completed, watched_seconds,
      played_seconds, last_activity_at)
    select v.course_id, p.student_id, count(*), count(p.completed_at), sum(p.watched_seconds), sum(p.played_seconds),
           max(p.updated_at)
    from video_progress p join videos v on v.id = p.video_id
    where v.course_id = any(${uuidArray(ids)}::uuid[])
    group by v.course_id, p.student_id`);
}
