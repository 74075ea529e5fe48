import { sql } from 'drizzle-orm';
import type { LiveAttendanceResponse } from '../../contract/live-attendance';
import type { CsvValue } from '../analytics/csv';
import type { Db } from '../db/client';
import type { Role } from '../db/schema';
import type { LiveClassRow } from './presenter';

/**
 * Attendance of live classes (docs/LIVE.md "Attendance"), recorded from what a student's player
 * already asks for, one statement each:
 * - **joined**: their first key of the class's lecture while the class is live (the key route,
 *   after its full access check);
 * - **minutes live / of the recording**: the played ranges of their progress saves, counted as live
 *   while the class is live and as the recording once it has ended.
 * A video that is no class's lecture costs one indexed look-up that finds nothing.
 */

/** A student fetched a key of `videoId`: if it is a live class under way, they joined it (the first time counts). */
export async function noteLiveKey(db: Db, user: { id: string; role: Role }, videoId: string, now: Date) {
  if (user.role !== 'student') return;
  const at = now.toISOString();
  await db.execute(sql`
    insert into live_attendance (class_id, student_id, joined_at, updated_at)
    select id, ${user.id}::uuid, ${at}::timestamptz, ${at}::timestamptz from live_classes
    where video_id = ${videoId}::uuid and status = 'live'
    on conflict (class_id, student_id) do update
      set joined_at = coalesce(live_attendance.joined_at, excluded.joined_at), updated_at = excluded.updated_at
      where live_attendance.joined_at is null`);
}

/** A student's save played `seconds` of `videoId`: live time while its class is live, recording time after. */
export async function noteLivePlay(
  db: Db,
  user: { id: string; role: Role },
  videoId: string,
  seconds: number,
  now: Date,
) {
  if (user.role !== 'student' || !(seconds > 0)) return;
  const at = now.toISOString();
  await db.execute(sql`
    insert into live_attendance (class_id, student_id, joined_at, live_seconds, recording_seconds, updated_at)
    select id, ${user.id}::uuid,
      case when status = 'live' then ${at}::timestamptz end,
      case when status = 'live' then ${seconds}::float8 else 0 end,
      case when status = 'ended' then ${seconds}::float8 else 0 end,
      ${at}::timestamptz
    from live_classes where video_id = ${videoId}::uuid and status in ('live', 'ended')
    on conflict (class_id, student_id) do update set
      joined_at = coalesce(live_attendance.joined_at, excluded.joined_at),
      live_seconds = live_attendance.live_seconds + excluded.live_seconds,
      recording_seconds = live_attendance.recording_seconds + excluded.recording_seconds,
      updated_at = excluded.updated_at`);
}

/** Seconds as whole minutes, as the screen and the CSV show them (30 s and more round up). */
const minutesOf = (seconds: number) => Math.round(seconds / 60);

interface AttendanceDbRow extends Record<string, unknown> {
  student_id: string;
  name: string;
  rollno: string | null;
  username: string;
  joined_at: Date | string | null;
  live_seconds: number | null;
  recording_seconds: number | null;
}

/**
 * The class's attendance: every student enrolled in its course (whatever their access now) and
 * anyone else who watched it, by roll number.
 */
export async function classAttendance(db: Db, row: LiveClassRow): Promise<LiveAttendanceResponse> {
  const result = await db.execute<AttendanceDbRow>(sql`
    select u.id as student_id, u.name, u.rollno, u.username,
      a.joined_at, a.live_seconds, a.recording_seconds
    from (
      select student_id from enrollments where course_id = ${row.courseId}
      union
      select student_id from live_attendance where class_id = ${row.id}
    ) s
    join users u on u.id = s.student_id and u.role = 'student'
    left join live_attendance a on a.class_id = ${row.id} and a.student_id = s.student_id
    order by lower(coalesce(u.rollno, u.username)), u.id`);
  const students = result.rows.map((r) => ({
    studentId: r.student_id,
    name: r.name,
    rollno: r.rollno,
    username: r.username,
    joinedAt: r.joined_at === null ? null : new Date(r.joined_at).toISOString(),
    liveMinutes: minutesOf(Number(r.live_seconds ?? 0)),
    recordingMinutes: minutesOf(Number(r.recording_seconds ?? 0)),
  }));
  return {
    class: {
      _id: row.id,
      title: row.title,
      startsAt: row.startsAt.toISOString(),
      minutes: row.minutes,
      status: row.status,
    },
    students,
    summary: {
      students: students.length,
      joined: students.filter((s) => s.joinedAt !== null).length,
      watchedRecording: students.filter((s) => s.recordingMinutes > 0).length,
    },
  };
}

/** The CSV rows of an attendance answer, in LIVE_ATTENDANCE_CSV_HEADER's order. */
export async function* attendanceCsvRows(report: LiveAttendanceResponse): AsyncIterable<CsvValue[]> {
  for (const s of report.students)
    yield [s.rollno ?? '', s.name, s.username, s.joinedAt ?? '', s.liveMinutes, s.recordingMinutes];
}
