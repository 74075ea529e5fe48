import { sql } from 'drizzle-orm';
import { hashPassword } from '../src/server/accounts/passwords';
import type { Db } from '../src/server/db/client';

export interface SchoolSize {
  courses: number;
  students: number;
  videos: number;
}

export const BENCH_SCHOOL: SchoolSize = { courses: 200, students: 10_000, videos: 5_000 };

export interface SchoolCounts extends SchoolSize {
  enrollments: number;
  videoAccess: number;
  auditEvents: number;
  seconds: number;
}

/**
 * Fills an empty database with a school of the given size, in a few set-based statements:
 * every student in one course (a batch), one in five in a second, one in twenty-five revoked,
 * one in ten expired; videos spread evenly over the courses, each granted to its course's students.
 */
export async function generateSchool(db: Db, size: SchoolSize, now: Date): Promise<SchoolCounts> {
  const started = performance.now();
  // One real hash shared by all: hashing 10,000 passwords would measure argon2, not the back office.
  const hash = await hashPassword('Bench@12345');
  const nowIso = now.toISOString();
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into courses (batch, course_code, name, description, start_date, end_date, created_at, updated_at)
      select (i % 20) + 1, 'C' || lpad(i::text, 4, '0'), 'Course ' || i,
             'Generated course ' || i || ' for the admin benchmark: lectures, projects and reviews.',
             date '2026-01-01' + (i % 90), date '2026-07-01' + (i % 90), ${nowIso}::timestamptz, ${nowIso}::timestamptz
      from generate_series(1, ${size.courses}) as i`);
    await tx.execute(sql`
      insert into users (role, username, email, name, rollno, password_hash, first_login, created_at)
      select 'student', 'student' || i, 'student' || i || '@bench.test', 'Student Number ' || i,
             'R' || lpad(i::text, 6, '0'), ${hash}, false, ${nowIso}::timestamptz
      from generate_series(1, ${size.students}) as i`);
    await tx.execute(sql`
      with c as (select id, row_number() over (order by course_code) - 1 as n from courses),
           s as (select id, row_number() over (order by rollno) as i from users where role = 'student'),
           pairs as (
             select s.id as student_id, s.i, (s.i % ${size.courses}) as n from s
             union all
             select s.id, s.i, ((s.i * 7 + 3) % ${size.courses}) from s where s.i % 5 = 0
           )
      insert into enrollments (course_id, student_id, access_expiration, access_revoked, access_revoked_reason, created_at, updated_at)
      select c.id, pairs.student_id,
             ${nowIso}::timestamptz + case when pairs.i % 10 = 0 then interval '-3 days' else interval '120 days' end,
             pairs.i % 25 = 0, case when pairs.i % 25 = 0 then 'Fees unpaid' end,
             ${nowIso}::timestamptz, ${nowIso}::timestamptz
      from pairs join c on c.n = pairs.n
      on conflict do nothing`);
    await tx.execute(sql`
      with c as (select id, row_number() over (order by course_code) - 1 as n from courses)
      insert into videos (title, description, course_id, position, status, duration_seconds, source_name, size_bytes, created_at, updated_at)
      select 'Lecture ' || i, 'Generated lecture ' || i, c.id, i / ${size.courses}, 'ready', 600 + (i % 3000),
             'lecture-' || i || '.mp4', 100000000, ${nowIso}::timestamptz, ${nowIso}::timestamptz
      from generate_series(0, ${size.videos - 1}) as i join c on c.n = i % ${size.courses}`);
    await tx.execute(sql`
      insert into video_access (video_id, student_id, created_at)
      select v.id, e.student_id, ${nowIso}::timestamptz
      from videos v join enrollments e on e.course_id = v.course_id`);
    await tx.execute(sql`
      insert into audit_events (created_at, action, student_id, course_id, old_expiration, new_expiration)
      select ${nowIso}::timestamptz, 'course.enrol', student_id, course_id, null, access_expiration from enrollments`);
  });
  await db.execute(sql`analyze`);
  const count = async (table: string) => {
    const result = await db.execute(sql.raw(`select count(*)::int as n from ${table}`));
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };
  return {
    courses: await count('courses'),
    students: await count(`users where role = 'student'`),
    videos: await count('videos'),
    enrollments: await count('enrollments'),
    videoAccess: await count('video_access'),
    auditEvents: await count('audit_events'),
    seconds: (performance.now() - started) / 1000,
  };
}
