import { sql } from 'drizzle-orm';
import { checkpointMessages, type CompletionResponse } from '../../contract/checkpoints';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { conflict } from '../errors';

/**
 * What the wiring attaches to a course becoming complete (certificates: issueCertificateOnCompletion).
 * Called once per student and course, after the completion row is written; a subscriber's failure
 * is logged and fails nothing.
 */
export type CourseCompletionSubscriber = (
  ctx: AppContext,
  event: { userId: string; courseId: string },
) => Promise<unknown>;

interface LectureRow {
  videoId: string;
  durationSeconds: number;
  watchedSeconds: number | null;
  completedAt: unknown;
  required: number;
  passed: number;
}

/**
 * A student's completion of a course: its lectures are the videos they may watch (ready, granted,
 * in course order, as the dashboard counts them). A lecture is complete when 90% of it was watched
 * (progress's own completion, kept for good) and every required checkpoint passed; the course
 * when every lecture is. A course without lectures is a 409.
 */
export async function courseCompletion(
  db: Db,
  studentId: string,
  courseId: string,
): Promise<CompletionResponse> {
  const { rows } = (await db.execute(sql`
    select v.id as "videoId", v.duration_seconds as "durationSeconds", p.watched_seconds as "watchedSeconds",
           p.completed_at as "completedAt",
           (select count(*) from checkpoints c where c.video_id = v.id and c.required)::int as "required",
           (select count(*) from checkpoints c join checkpoint_states s
              on s.checkpoint_id = c.id and s.student_id = ${studentId} and s.passed_at is not null
            where c.video_id = v.id and c.required)::int as "passed"
    from videos v
    join video_access va on va.video_id = v.id and va.student_id = ${studentId}
    left join video_progress p on p.video_id = v.id and p.student_id = ${studentId}
    where v.course_id = ${courseId} and v.status = 'ready'
    order by v.position, v.created_at, v.id`)) as unknown as { rows: LectureRow[] };
  if (!rows.length) throw conflict(checkpointMessages.noLectures);
  const lectures = rows.map((r) => {
    const duration = Number(r.durationSeconds);
    const watched = duration > 0 ? Math.min(1, Number(r.watchedSeconds ?? 0) / duration) : 0;
    const required = Number(r.required);
    const passed = Number(r.passed);
    return {
      videoId: r.videoId,
      watched: Math.round(watched * 1000) / 1000,
      checkpointsPassed: passed,
      checkpointsRequired: required,
      complete: r.completedAt !== null && r.completedAt !== undefined && passed >= required,
    };
  });
  return { complete: lectures.every((l) => l.complete), lectures };
}

/**
 * The one place a course becoming complete is detected: after anything that may complete a lecture
 * (a save that reached 90%, a passed checkpoint), the lecture's course is checked; the first time it
 * is complete a course_completions row is written and the subscribers are called.
 */
export class CompletionWatch {
  constructor(
    private readonly ctx: AppContext,
    private readonly subscribers: readonly CourseCompletionSubscriber[] = [],
  ) {}

  async lectureChanged(userId: string, videoId: string): Promise<void> {
    const { db } = this.ctx;
    const { rows } = (await db.execute(sql`
      select v.course_id as "courseId" from videos v
      where v.id = ${videoId} and v.course_id is not null
        and not exists (select from course_completions cc where cc.student_id = ${userId} and cc.course_id = v.course_id)`)) as unknown as {
      rows: { courseId: string }[];
    };
    const courseId = rows[0]?.courseId;
    if (!courseId) return;
    const completion = await courseCompletion(db, userId, courseId).catch(() => undefined);
    if (!completion?.complete) return;
    const inserted = (await db.execute(sql`
      insert into course_completions (student_id, course_id, completed_at)
      values (${userId}, ${courseId}, ${this.ctx.clock.now().toISOString()}::timestamptz)
      on conflict do nothing returning 1`)) as unknown as { rows: unknown[] };
    if (!inserted.rows.length) return;
    for (const subscriber of this.subscribers) {
      await subscriber(this.ctx, { userId, courseId }).catch((error: unknown) =>
        this.ctx.logger.error({ err: error, userId, courseId }, 'a course completion subscriber failed'),
      );
    }
  }
}
