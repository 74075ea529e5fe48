import { sql } from 'drizzle-orm';
import { apiAccessState, courseAccess } from '../../contract/access-policy';
import { ANALYTICS_DAYS, type StudentAnalytics, type StudentCourseActivity } from '../../contract/analytics';
import { adminMessages } from '../../contract/messages';
import { isUuid } from '../db/ids';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { isAtRisk } from './at-risk';
import type { CsvValue } from './csv';
import { lastDays } from '../progress/days';
import { rowsOf } from '../db/raw';
import { iso, num, round4, shareOf } from './queries';

/**
 * A student's learning: per enrolled course their totals and every ready video with the share
 * watched, completion, last save and the last 7 days' watch time; and seconds watched per day over
 * the last 30 days, days in the school's time zone.
 */
export async function studentAnalytics(
  db: Db,
  studentId: string,
  now: Date,
  timeZone: string,
): Promise<StudentAnalytics> {
  if (!isUuid(studentId)) throw notFound(adminMessages.studentNotFound);
  const [student] = await rowsOf<{ id: string; rollno: string | null; name: string; email: string }>(
    db,
    sql`select id, rollno, name, email from users where id = ${studentId} and role = 'student'`,
  );
  if (!student) throw notFound(adminMessages.studentNotFound);
  const days = lastDays(timeZone, now, ANALYTICS_DAYS);
  const weekFrom = days[days.length - 7]!;

  const [courses, videos, perDay] = await Promise.all([
    rowsOf<Record<string, unknown>>(
      db,
      sql`select c.id, c.name, c.batch, c.course_code as code, e.access_revoked as revoked,
                 e.access_expiration as expiration, coalesce(cs.videos_started, 0) as started,
                 coalesce(cs.videos_completed, 0) as completed, coalesce(cs.watched_seconds, 0) as watched,
                 coalesce(cs.played_seconds, 0) as played, cs.last_activity_at as last_activity
          from enrollments e join courses c on c.id = e.course_id
          left join course_watch_stats cs on cs.course_id = e.course_id and cs.student_id = e.student_id
          where e.student_id = ${student.id}
          order by c.start_date desc, c.name`,
    ),
    rowsOf<Record<string, unknown>>(
      db,
      sql`select v.id, v.course_id, v.title, v.duration_seconds as duration, p.watched_seconds as watched,
                 p.completed_at is not null as completed, p.updated_at as last_watched,
                 (select sum(d.seconds) from watch_days d
                   where d.student_id = ${student.id} and d.video_id = v.id and d.day >= ${weekFrom}::date) as week
          from videos v
          join enrollments e on e.course_id = v.course_id and e.student_id = ${student.id}
          left join video_progress p on p.video_id = v.id and p.student_id = ${student.id}
          where v.status = 'ready'
          order by v.position, v.created_at, v.id`,
    ),
    rowsOf<{ day: unknown; seconds: unknown }>(
      db,
      sql`select day::text as day, sum(seconds)::float8 as seconds from watch_days
          where student_id = ${student.id} and day >= ${days[0]!}::date
          group by day`,
    ),
  ]);

  const byDay = new Map(perDay.map((d) => [String(d.day), num(d.seconds)]));
  const list: StudentCourseActivity[] = courses.map((c) => {
    const own = videos.filter((v) => v.course_id === c.id);
    const length = own.reduce((sum, v) => sum + num(v.duration), 0);
    const expiration = new Date(c.expiration as string);
    const verdict = courseAccess(
      { accessRevoked: c.revoked as boolean, accessExpiration: expiration },
      now,
      timeZone,
    );
    const active = verdict.canWatch;
    const lastActivity = iso(c.last_activity);
    const started = num(c.started);
    return {
      _id: c.id as string,
      name: c.name as string,
      batch: num(c.batch),
      coursecode: c.code as string,
      access: apiAccessState(verdict),
      accessexpiration: expiration.toISOString(),
      atRisk: isAtRisk(
        { active, videosStarted: started, lastActivity: lastActivity ? new Date(lastActivity) : null },
        own.length,
        now,
      ),
      totalVideos: own.length,
      videosStarted: started,
      videosCompleted: num(c.completed),
      watchedShare: round4(shareOf(num(c.watched), length)),
      watchSeconds: Math.round(num(c.played)),
      lastActivity,
      videos: own.map((v) => ({
        _id: v.id as string,
        title: v.title as string,
        durationSeconds: num(v.duration),
        watchedSeconds: Math.round(num(v.watched) * 10) / 10,
        share: round4(shareOf(num(v.watched), num(v.duration))),
        completed: v.completed === true,
        lastWatched: iso(v.last_watched),
        weekSeconds: Math.round(num(v.week)),
      })),
    };
  });
  return {
    student: { _id: student.id, rollno: student.rollno ?? '', name: student.name, email: student.email },
    timeZone,
    days: days.map((day) => ({ day, seconds: Math.round(byDay.get(day) ?? 0) })),
    courses: list,
  };
}

export const STUDENT_CSV_HEADER = [
  'course_code',
  'course_name',
  'batch',
  'access',
  'video_position',
  'video_id',
  'video_title',
  'video_duration_seconds',
  'watched_seconds',
  'watched_share',
  'completed',
  'last_watched',
  'watch_seconds_last_7_days',
] as const;

/** One row per video of each of the student's courses. */
export async function* studentCsvRows(analytics: StudentAnalytics): AsyncGenerator<CsvValue[]> {
  for (const course of analytics.courses) {
    for (const [i, v] of course.videos.entries()) {
      yield [
        course.coursecode,
        course.name,
        course.batch,
        course.access,
        i + 1,
        v._id,
        v.title,
        Math.round(v.durationSeconds * 10) / 10,
        v.watchedSeconds,
        v.share,
        v.completed,
        v.lastWatched,
        v.weekSeconds,
      ];
    }
  }
}
