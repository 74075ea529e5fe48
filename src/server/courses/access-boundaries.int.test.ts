import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseAccess, type AccessState } from '../../contract/access-policy';
import { testEngines } from '../../../test/support/databases';
import { TestServer } from '../../../test/support/test-server';
import { enrollments, users } from '../db/schema';
import { activeEnrollment, enrollmentState } from './access-sql';
import { grantCourseAccess, revokeCourseAccess } from './course-access';
import { createCourse } from './course-service';

/** 15:00 in Kolkata, 04:30 in New York: the school day ends at 18:30 UTC in one and 05:00 UTC in the other. */
const NOW = new Date('2026-03-10T09:30:00.000Z');
const MS = 1;
const DAY = 86_400_000;

type Row = { name: string; revoked?: boolean; expires?: number; enrolled?: boolean };

/** Every boundary of the rule: expiry around now, around the school's midnight and UTC's, revoked, not enrolled. */
const ROWS: Row[] = [
  { name: 'expired one millisecond ago', expires: NOW.getTime() - MS },
  { name: 'expires now', expires: NOW.getTime() },
  { name: 'expires in one millisecond', expires: NOW.getTime() + MS },
  { name: 'expired a few hours ago, the same school day', expires: NOW.getTime() - 3 * 3_600_000 },
  {
    name: 'expires at the last millisecond of the Kolkata day',
    expires: Date.parse('2026-03-10T18:29:59.999Z'),
  },
  { name: 'expires at midnight in Kolkata', expires: Date.parse('2026-03-10T18:30:00.000Z') },
  {
    name: 'expires at the last millisecond of the New York day',
    expires: Date.parse('2026-03-11T03:59:59.999Z'),
  },
  { name: 'expires at midnight in New York', expires: Date.parse('2026-03-11T04:00:00.000Z') },
  { name: 'expires at midnight UTC', expires: Date.parse('2026-03-11T00:00:00.000Z') },
  { name: 'expired yesterday', expires: NOW.getTime() - DAY },
  { name: 'expires in a year', expires: NOW.getTime() + 365 * DAY },
  { name: 'revoked before its expiry', expires: NOW.getTime() + 30 * DAY, revoked: true },
  { name: 'revoked and expired', expires: NOW.getTime() - DAY, revoked: true },
  { name: 'not enrolled', enrolled: false },
];

const ZONES = ['Asia/Kolkata', 'America/New_York', 'UTC'];

describe.each(testEngines())('the access rule in SQL equals the policy (%s)', (engine) => {
  let server: TestServer;
  let courseId: string;
  const students = new Map<string, string>();

  beforeAll(async () => {
    server = await TestServer.start({ engine, now: NOW.toISOString() });
    const admin = await server.createAdmin();
    const course = await createCourse(server.ctx, {
      batch: 1, coursecode: 'AB1', name: 'Boundaries', description: 'Rows on every edge.', startdate: '2026-03-01', enddate: '2026-09-01',
    }); // prettier-ignore
    courseId = course._id;
    for (const row of [...ROWS, { name: 'revoked, then granted again' }]) {
      students.set(row.name, (await server.createActiveStudent()).id);
    }
    const db = server.ctx.db;
    for (const row of ROWS.filter((r) => r.enrolled !== false)) {
      await db.insert(enrollments).values({
        courseId,
        studentId: students.get(row.name)!,
        accessExpiration: new Date(row.expires!),
        accessRevoked: row.revoked ?? false,
        accessRevokedReason: row.revoked ? 'Fees pending' : null,
      });
    }
    // Through the services, as an admin would: granted, revoked, granted again for a day.
    const regranted = students.get('revoked, then granted again')!;
    const grant = { courseId, studentIds: [regranted], days: 1 };
    await grantCourseAccess(db, admin.id, grant, new Date(NOW.getTime() - 2 * DAY), 'UTC');
    await revokeCourseAccess(db, admin.id, { courseId, studentId: regranted, reason: 'x' }, NOW);
    await grantCourseAccess(db, admin.id, grant, NOW, 'UTC');
  }, 60_000);
  afterAll(() => server?.close());

  it.each(ZONES)('decides every boundary row the same in %s', async (timeZone) => {
    const rows = await server.ctx.db
      .select({
        name: users.id,
        accessRevoked: enrollments.accessRevoked,
        accessExpiration: enrollments.accessExpiration,
        state: enrollmentState(NOW, timeZone),
        active: sql<boolean>`coalesce(${activeEnrollment(NOW)}, false)`,
      })
      .from(users)
      .leftJoin(enrollments, and(eq(enrollments.studentId, users.id), eq(enrollments.courseId, courseId)))
      .where(eq(users.role, 'student'));
    const names = new Map([...students].map(([name, id]) => [id, name]));
    const table = rows.map((row) => {
      const enrollment = row.accessExpiration
        ? { accessRevoked: row.accessRevoked!, accessExpiration: row.accessExpiration }
        : null;
      const verdict = courseAccess(enrollment, NOW, timeZone);
      return {
        row: names.get(row.name),
        sql: [row.state, row.active],
        policy: [verdict.state, verdict.canWatch],
      };
    });
    expect(table).toHaveLength(ROWS.length + 1);
    for (const line of table) expect(line.sql, line.row).toEqual(line.policy);
    // The table means something: it holds every state.
    const states = new Set(table.map((line) => line.policy[0] as AccessState));
    expect([...states].sort()).toEqual(['active', 'expired', 'expires-today', 'not-enrolled', 'revoked']);
  });
});
