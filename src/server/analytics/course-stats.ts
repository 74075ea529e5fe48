import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { uuidArray } from './queries';

type Executor = Pick<Db, 'execute'>;

/**
 * Recounts the students' totals of the given courses from their progress rows. Progress saves keep
 * course_watch_stats by increments; a video that leaves a course (moved or deleted) takes its
 * rows' share with it only through this.
 */
export async function rebuildCourseStats(
  db: Executor,
  courseIds: (string | null | undefined)[],
): Promise<void> {
  const ids = [...new Set(courseIds.filter((id): id is string => !!id))];
  if (!ids.length) return;
  await db.execute(sql`delete from course_watch_stats where course_id = any(${uuidArray(ids)}::uuid[])`);
  await db.execute(sql`
    insert into course_watch_stats (course_id, student_id, videos_started, videos_completed, watched_seconds,
      played_seconds, last_activity_at)
    select v.course_id, p.student_id, count(*), count(p.completed_at), sum(p.watched_seconds), sum(p.played_seconds),
           max(p.updated_at)
    from video_progress p join videos v on v.id = p.video_id
    where v.course_id = any(${uuidArray(ids)}::uuid[])
    group by v.course_id, p.student_id`);
}
