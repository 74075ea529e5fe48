import { sql } from 'drizzle-orm';
import { hashPassword } from '../src/server/accounts/passwords';
import type { Db } from '../src/server/db/client';

export interface AnalyticsSchoolSize {
  students: number;
  videos: number;
  /** Share of student-video pairs with progress. */
  started: number;
  days: number;
}

export const BENCH_ANALYTICS: AnalyticsSchoolSize = { students: 10_000, videos: 200, started: 0.7, days: 30 };

export interface SeedReport {
  courseId: string;
  pairs: number;
  progressRows: number;
  dayRows: number;
  seconds: number;
}

const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>) =>
  (await db.execute(query)) as unknown as { rows: T[] };

/**
 * One cohort: a course of `videos` lectures (10-30 minutes) with `students` enrolled and granted all
 * of them, and `started` of the pairs watched: each a prefix of the video (a bitmap as the saves
 * write it), played on a day of the last `days`, the per-bucket counters and course totals made to
 * agree with them. Set-based statements only (generate_series), so PostgreSQL seeds it in seconds.
 */
export async function seedAnalyticsCohort(db: Db, size: AnalyticsSchoolSize, now: Date): Promise<SeedReport> {
  const started = performance.now();
  const hash = await hashPassword('Bench@12345');
  const at = now.toISOString();
  const threshold = Math.round(size.started * 1000);
  let courseId = '';
  await db.transaction(async (tx) => {
    const course = await rowsOf<{ id: string }>(
      tx as unknown as Db,
      sql`insert into courses (batch, course_code, name, description, start_date, end_date)
          values (1, 'COHORT', 'Cohort of ' || ${size.students}, 'Analytics benchmark', '2026-01-01', '2026-12-31')
          returning id`,
    );
    courseId = course.rows[0]!.id;
    await tx.execute(sql`
      insert into users (role, username, email, name, rollno, password_hash, first_login)
      select 'student', 'viewer' || i, 'viewer' || i || '@bench.test', 'Viewer ' || lpad(i::text, 5, '0'),
             'V' || lpad(i::text, 6, '0'), ${hash}, false
      from generate_series(1, ${size.students}) as i`);
    await tx.execute(sql`
      insert into enrollments (course_id, student_id, access_expiration)
      select ${courseId}, id, ${at}::timestamptz + interval '120 days' from users where username like 'viewer%'`);
    await tx.execute(sql`
      insert into videos (title, course_id, position, status, duration_seconds, source_name)
      select 'Lecture ' || i, ${courseId}, i, 'ready', 600 + (i * 37) % 1200, 'l' || i || '.mp4'
      from generate_series(1, ${size.videos}) as i`);
    await tx.execute(sql`
      insert into video_access (video_id, student_id)
      select v.id, e.student_id from videos v join enrollments e on e.course_id = v.course_id
      where v.course_id = ${courseId}`);
    // A pair watched a prefix of `w` seconds (w a multiple of 8, so the bitmap is whole bytes).
    await tx.execute(sql`
      with pairs as (
        select va.student_id, va.video_id, v.duration_seconds as d,
               abs(hashtext(va.student_id::text || va.video_id::text)) as h
        from video_access va join videos v on v.id = va.video_id where v.course_id = ${courseId}
      ), watched as (
        select student_id, video_id, d, h, (((h / 1000) % 1000) * floor(d)::int / 1000 / 8) * 8 + 8 as w
        from pairs where h % 1000 < ${threshold}
      )
      insert into video_progress (student_id, video_id, position_seconds, watched_seconds, claimed_seconds,
        watched_cells, played_seconds, revision, completed_at, updated_at)
      select student_id, video_id, least(w, d), least(w, d), 0,
             decode(rpad(repeat('ff', least(w, floor(d)::int) / 8), 2 * ceil(d / 8)::int, '0'), 'hex'),
             least(w, d) * 1.2, 1 + h % 5,
             case when w >= 0.9 * d then ${at}::timestamptz - ((h % ${size.days}) || ' days')::interval end,
             ${at}::timestamptz - ((h % ${size.days}) || ' days')::interval - ((h % 86400) || ' seconds')::interval
      from watched`);
    await tx.execute(sql`
      insert into watch_days (student_id, day, video_id, seconds)
      select p.student_id, (p.updated_at at time zone 'Asia/Kolkata')::date, p.video_id, p.played_seconds
      from video_progress p join videos v on v.id = p.video_id where v.course_id = ${courseId}`);
    // Viewers of bucket b: pairs whose watched prefix reaches into it.
    await tx.execute(sql`
      with last as (
        select video_id, (ceil(watched_seconds)::int - 1) / 5 as b, count(*)::int as n, sum(played_seconds) as played
        from video_progress p join videos v on v.id = p.video_id where v.course_id = ${courseId}
        group by video_id, (ceil(watched_seconds)::int - 1) / 5
      ), buckets as (
        select v.id as video_id, g.b from videos v, generate_series(0, ceil(v.duration_seconds / 5)::int - 1) as g(b)
        where v.course_id = ${courseId}
      )
      insert into video_watch_buckets (video_id, bucket, viewers, played_ms)
      select b.video_id, b.b, s.viewers, s.viewers * 6000
      from buckets b
      cross join lateral (select coalesce(sum(n), 0)::int as viewers from last l where l.video_id = b.video_id and l.b >= b.b) s
      where s.viewers > 0`);
    await tx.execute(sql`
      insert into course_watch_stats (course_id, student_id, videos_started, videos_completed, watched_seconds,
        played_seconds, last_activity_at)
      select ${courseId}, p.student_id, count(*), count(p.completed_at), sum(p.watched_seconds), sum(p.played_seconds),
             max(p.updated_at)
      from video_progress p join videos v on v.id = p.video_id where v.course_id = ${courseId}
      group by p.student_id`);
  });
  await db.execute(sql`analyze`);
  const count = async (query: ReturnType<typeof sql>) => (await rowsOf<{ n: number }>(db, query)).rows[0]!.n;
  return {
    courseId,
    pairs: await count(sql`select count(*)::int as n from video_access`),
    progressRows: await count(sql`select count(*)::int as n from video_progress`),
    dayRows: await count(sql`select count(*)::int as n from watch_days`),
    seconds: (performance.now() - started) / 1000,
  };
}
