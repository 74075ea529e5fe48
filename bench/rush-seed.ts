/**
 * The evening-rush school: the admin benchmark's generated school (200 courses, 10,000 students,
 * 5,000 videos) plus tonight's course, whose real lectures are packaged here before the server starts,
 * and the `viewers` students of the cohort enrolled in it with every lecture granted.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import { createAdmin } from '../src/server/accounts/users';
import type { Config } from '../src/server/config';
import { courses, enrollments, users, videos } from '../src/server/db/schema';
import { enqueueJob } from '../src/server/jobs/queue';
import { jobHandlers } from '../src/server/wiring/job-registry';
import { JobRunner } from '../src/server/jobs/runner';
import { createMediaTools } from '../src/server/storage/ffmpeg';
import { PACKAGE_PRIORITY } from '../src/server/media/job-types';
import { mediaKeys } from '../src/server/storage';
import { openRuntime } from '../src/server/runtime';
import { BENCH_SCHOOL, generateSchool, type SchoolSize } from './school';

export const RUSH_PASSWORD = 'Bench@12345'; // generateSchool's shared password
export const RUSH_ADMIN = { username: 'rushadmin', password: 'Rush@Admin123' };

export interface RushSchool {
  courseId: string;
  students: { username: string; rollno: string }[];
  lectures: number;
  summary: string;
}

/** Seeds an empty database (opened here, closed before the server starts: PGlite allows one process). */
export async function seedRush(
  config: Readonly<Config>,
  viewers: number,
  lectureSource: string,
  lectures: number,
  /** The rest of the school around tonight's cohort (the rolling-restart test uses a small one). */
  size: SchoolSize = BENCH_SCHOOL,
): Promise<RushSchool> {
  const runtime = await openRuntime(config);
  const { ctx } = runtime;
  try {
    const school = await generateSchool(ctx.db, size, ctx.clock.now());
    const admin = await createAdmin(ctx.db, {
      username: RUSH_ADMIN.username,
      email: 'rush@bench.test',
      password: RUSH_ADMIN.password,
    });
    const [course] = await ctx.db
      .insert(courses)
      .values({
        batch: 24,
        courseCode: 'RUSH',
        name: 'Full-stack evening cohort',
        description: 'Tonight: the lectures everyone watches between 19:00 and 22:00.',
        startDate: '2026-01-01',
        endDate: '2030-12-31',
      })
      .returning({ id: courses.id });
    const courseId = course!.id;
    // The cohort: students whose generated enrolment is active (every 10th is expired, every 25th revoked).
    const students = await ctx.db
      .selectDistinct({ id: users.id, username: users.username, rollno: users.rollno })
      .from(users)
      .innerJoin(enrollments, eq(enrollments.studentId, users.id))
      .where(
        and(
          eq(users.role, 'student'),
          eq(enrollments.accessRevoked, false),
          sql`${enrollments.accessExpiration} > now()`,
        ),
      )
      .orderBy(users.rollno)
      .limit(viewers);
    if (students.length < viewers)
      throw new Error(`only ${students.length} active students for ${viewers} viewers`);
    const expires = new Date(Date.now() + 120 * 86_400_000);
    await ctx.db
      .insert(enrollments)
      .values(students.map((s) => ({ courseId, studentId: s.id, accessExpiration: expires })));

    // Lectures: packaged by the real handlers (remux to encrypted HLS, poster), ladder left out: on
    // loopback a player stays on the top rendition, and the rush's own upload brings a ladder's CPU.
    const probe = await createMediaTools(config).probe(lectureSource);
    for (let i = 0; i < lectures; i++) {
      const videoId = randomUUID();
      await ctx.media.current.put(mediaKeys.source(videoId), { file: lectureSource });
      await ctx.db.transaction(async (tx) => {
        await tx.insert(videos).values({
          id: videoId,
          title: `Lecture ${i + 1}`,
          description: `Evening lecture ${i + 1}`,
          courseId,
          position: i + 1,
          status: 'processing',
          durationSeconds: probe!.durationSeconds,
          sourceName: `lecture-${i + 1}.mp4`,
          sizeBytes: (await stat(lectureSource)).size,
          createdBy: admin.id,
          store: ctx.media.current.kind,
        });
        await enqueueJob(tx, 'media.package', { videoId }, { priority: PACKAGE_PRIORITY });
      });
    }
    const runner = new JobRunner(
      ctx,
      { ...jobHandlers(ctx), 'media.ladder': async () => {} },
      { pollMs: 100 },
    );
    await runner.start();
    await runner.idle(300_000);
    await runner.stop();
    const ready = await ctx.db
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.courseId, courseId), eq(videos.status, 'ready')));
    if (ready.length !== lectures)
      throw new Error(`only ${ready.length} of ${lectures} lectures were packaged`);
    await ctx.db.execute(sql`
      insert into video_access (video_id, student_id)
      select v.id, e.student_id from videos v join enrollments e on e.course_id = v.course_id
      where v.course_id = ${courseId}`);
    await ctx.db.execute(sql`analyze`);
    return {
      courseId,
      students: students.map((s) => ({ username: s.username, rollno: s.rollno! })),
      lectures,
      summary:
        `${school.courses} courses, ${school.students} students, ${school.videos} videos, ${school.enrollments} enrolments; ` +
        `tonight's course: ${lectures} lectures of ${probe!.durationSeconds.toFixed(0)} s, ${viewers} students`,
    };
  } finally {
    await runtime.close();
  }
}
