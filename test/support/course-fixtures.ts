import { eq } from 'drizzle-orm';
import { auditEvents, videos } from '../../src/server/db/schema';
import type { TestClient } from './http-client';
import type { TestServer } from './test-server';

/** A 1x1 PNG as the admin forms send it. */
export const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A well-formed id that names nothing (for the 404 cases). */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let sequence = 0;

/** A valid /course/create body with a fresh course code. */
export function courseBody(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    batch: 7,
    coursecode: `FS${100 + sequence}`,
    name: `Full Stack ${sequence}`,
    description: 'HTML, CSS, JavaScript, React and Node.',
    startdate: '2026-03-01',
    enddate: '2026-08-31',
    ...overrides,
  };
}

/** Creates a course through the admin API and returns it as presented. */
export async function createCourseVia(admin: TestClient, overrides: Record<string, unknown> = {}) {
  const res = await admin.post('/api/admin/course/create', courseBody(overrides));
  if (res.status !== 200) throw new Error(`course create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.course as { _id: string; name: string; batch: number; coursecode: string };
}

/** Enrols students through the admin API for `days` days. */
export async function enrolVia(admin: TestClient, courseId: string, studentIds: string[], days = 30) {
  for (const studentId of studentIds) {
    const res = await admin.post('/api/admin/course/grantaccess', { courseId, studentId, days });
    if (res.status !== 200) throw new Error(`grant failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** The row the streamer writes when an upload is finalized: processing, named after the file, no course. */
export async function insertFinalizedVideo(
  server: TestServer,
  overrides: Partial<typeof videos.$inferInsert> = {},
) {
  const [row] = await server.ctx.db
    .insert(videos)
    .values({ title: 'lecture-01.mp4', sourceName: 'lecture-01.mp4', durationSeconds: 754, ...overrides })
    .returning();
  return row!;
}

/** The audit rows about one student, oldest first. */
export async function auditOf(server: TestServer, studentId: string) {
  const rows = await server.ctx.db.select().from(auditEvents).where(eq(auditEvents.studentId, studentId));
  return rows.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * POSTs a live class of `courseId` (docs/LIVE.md) by `client` (an admin or an instructor): 60
 * minutes titled "Closures, live" unless `fields` say otherwise. Answers the response, refusals too.
 */
export function scheduleClassVia(
  client: TestClient,
  courseId: string,
  startsAt: string,
  fields: Record<string, unknown> = {},
) {
  return client.post('/api/admin/live-classes', {
    courseId,
    title: 'Closures, live',
    startsAt,
    minutes: 60,
    ...fields,
  });
}
