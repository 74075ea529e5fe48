import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { users, videoAccess, videos } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import { createMediaTools, inputArgs } from '../storage/ffmpeg';
import { PACKAGE_ATTEMPTS, PACKAGE_PRIORITY } from './job-types';
import { mediaKeys } from '../storage';
import { scratchFileSize } from '../storage/scratch';

const LECTURES = [
  {
    title: 'Sample lecture 1: Using the player',
    description:
      'A few seconds of test pattern and a steady tone. Try the speed button, the arrow keys and fullscreen.',
    pattern: 'testsrc2=size=854x480:rate=25',
    tone: 440,
  },
  {
    title: 'Sample lecture 2: The playlist',
    description: 'The second sample: Play Next brought you here. Videos play in course order.',
    pattern: 'smptehdbars=size=854x480:rate=25',
    tone: 660,
  },
];
const SECONDS = 8;

/**
 * Generates the two sample lectures of the demo course with ffmpeg (test pattern, tone), grants them
 * to the demo student and queues their packaging: a newcomer can watch something a minute after cloning.
 */
export async function addDemoLectures(
  ctx: AppContext,
  demo: { courseId: string; studentUsername: string },
): Promise<number> {
  const tools = createMediaTools(ctx.config);
  const { current: store, scratch } = ctx.media;
  const [student] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.username, demo.studentUsername), eq(users.role, 'student')))
    .limit(1);
  const [admin] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  let added = 0;
  for (const [index, lecture] of LECTURES.entries()) {
    const videoId = randomUUID();
    const name = `${videoId}.demo`;
    const source = scratch.path(`${name}.mp4`);
    try {
      await scratch.folder(name); // makes the scratch folder exist
      await tools.ffmpeg([
        ...inputArgs(`${lecture.pattern}:duration=${SECONDS}`, 'lavfi'),
        ...inputArgs(`sine=frequency=${lecture.tone}:sample_rate=48000:duration=${SECONDS}`, 'lavfi'),
        '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '50',
        '-c:a', 'aac', '-b:a', '96k', '-shortest', '-f', 'mp4', source,
      ]); // prettier-ignore
      const probe = await tools.probe(source);
      const sizeBytes = await scratchFileSize(source);
      await store.put(mediaKeys.source(videoId), { file: source }, { contentType: 'video/mp4' });
      const now = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        await tx.insert(videos).values({
          id: videoId,
          title: lecture.title,
          description: lecture.description,
          courseId: demo.courseId,
          position: index + 1,
          status: 'processing',
          durationSeconds: probe?.durationSeconds ?? SECONDS,
          sourceName: `sample-lecture-${index + 1}.mp4`,
          sizeBytes,
          store: store.kind,
          createdBy: admin?.id ?? null,
          createdAt: now,
          updatedAt: now,
        });
        if (student)
          await tx
            .insert(videoAccess)
            .values({ videoId, studentId: student.id, grantedBy: admin?.id ?? null });
        await enqueueJob(
          tx,
          'media.package',
          { videoId },
          { priority: PACKAGE_PRIORITY, runAt: now, maxAttempts: PACKAGE_ATTEMPTS },
        );
      });
      added++;
    } catch (error) {
      await store.delete(mediaKeys.source(videoId)).catch(() => {});
      ctx.logger.warn({ err: error }, 'could not generate a demo lecture (is ffmpeg installed?)');
    } finally {
      await scratch.remove(name, `${name}.mp4`);
    }
  }
  return added;
}
