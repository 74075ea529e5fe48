import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { courses, enrollments, users } from '../db/schema';

/** `toISOString()` in SQL, so timestamps read the same as everywhere else in the API. */
const isoTimestamp = (column: unknown) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The course access list (SPEC.md section 3, "Course access list entry") as JSON text, for all
 * courses or one. The database builds the JSON: the full list of a school is thousands of
 * students, and turning rows into objects and back in Node would cost more than the query itself.
 * Courses without students are listed with an empty `students`, so they can be enrolled into.
 */
export async function courseAccessListJson(db: Db, courseId?: string): Promise<string> {
  const students = sql`
    select json_agg(json_build_object(
      'studentid', ${users.id},
      'rollno', ${users.rollno},
      'name', ${users.name},
      'email', ${users.email},
      'accessexpiration', ${isoTimestamp(enrollments.accessExpiration)},
      'accessrevoked', ${enrollments.accessRevoked},
      'accessrevokedreason', ${enrollments.accessRevokedReason}
    ) order by ${users.rollno}, ${users.id})
    from ${enrollments} join ${users} on ${users.id} = ${enrollments.studentId}
    where ${enrollments.courseId} = ${courses.id}`;
  const result = await db.execute(sql`
    select coalesce(json_agg(json_build_object(
      'courseId', ${courses.id},
      'courseName', ${courses.name},
      'batch', ${courses.batch},
      'students', coalesce((${students}), '[]'::json)
    ) order by ${courses.startDate} desc, ${courses.name}, ${courses.batch}), '[]'::json)::text as list
    from ${courses}
    where ${courseId ?? null}::uuid is null or ${courses.id} = ${courseId ?? null}::uuid`);
  const [row] = result.rows as { list: string }[];
  return row!.list;
}
