import { eq } from 'drizzle-orm';
import { courses, enrollments, users, videoAccess, videos } from '../../src/server/db/schema';
import type { TestClient } from './http-client';
import { OPEN_TIME, type TestServer, type TestStudent } from './test-server';

const DAY = 86_400_000;
let sequence = 0;

/** A course of `lengths.length` ready videos (seconds each), every student enrolled until `expires` and granted all. */
export async function watchedCourse(
  server: TestServer,
  students: TestStudent[],
  lengths: number[] = [100, 100],
  expires = new Date(Date.parse(OPEN_TIME) + 30 * DAY),
) {
  const db = server.ctx.db;
  sequence += 1;
  const [course] = await db
    .insert(courses)
    .values({
      batch: 7,
      courseCode: `W${sequence}`,
      name: `Watching ${sequence}`,
      description: 'd',
      startDate: '2026-03-01',
      endDate: '2026-06-30',
    })
    .returning();
  const list = await db
    .insert(videos)
    .values(
      lengths.map((durationSeconds, i) => ({
        title: `Lecture ${i + 1}`,
        sourceName: `l${i + 1}.mp4`,
        courseId: course!.id,
        position: i + 1,
        status: 'ready' as const,
        durationSeconds,
      })),
    )
    .returning();
  for (const student of students)
    await enrol(
      server,
      course!.id,
      student,
      expires,
      list.map((v) => v.id),
    );
  return {
    courseId: course!.id,
    code: course!.courseCode,
    name: course!.name,
    videoIds: list.map((v) => v.id),
  };
}

/** Enrols `student` in a course until `expires` and grants them `videoIds`. */
export async function enrol(
  server: TestServer,
  courseId: string,
  student: TestStudent,
  expires: Date,
  videoIds: string[],
) {
  await server.ctx.db
    .insert(enrollments)
    .values({ courseId, studentId: student.id, accessExpiration: expires });
  if (videoIds.length)
    await server.ctx.db
      .insert(videoAccess)
      .values(videoIds.map((videoId) => ({ videoId, studentId: student.id })));
}

export async function renameStudent(server: TestServer, student: TestStudent, name: string) {
  await server.ctx.db.update(users).set({ name }).where(eq(users.id, student.id));
}

/**
 * A progress save as the current player sends it: at the end of the last range, no watched total
 * of its own, at normal speed. `save` changes any of those, as a seek, an old total or a forged rate.
 */
export const saveRanges = (
  client: TestClient,
  videoId: string,
  ranges: [number, number][],
  save: { position?: number; watched?: number; rate?: number } = {},
) =>
  client.post('/api/progress', {
    videoId,
    position: save.position ?? ranges.at(-1)?.[1] ?? 0,
    watched: save.watched ?? 0,
    ranges,
    rate: save.rate ?? 1,
  });

/** Raw bytes of a GET, as a browser download would keep them (fetch's text() drops a BOM). */
export async function download(client: TestClient, path: string) {
  const res = await fetch(new URL(path, client.baseUrl), {
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
