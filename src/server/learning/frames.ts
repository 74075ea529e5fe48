import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { questions, videos } from '../db/schema';
import type { JobHandler } from '../jobs/types';
import type { MediaTools } from '../storage/ffmpeg';
import { takeStill } from '../media/stills';
import { mediaKeys, type MediaStore } from '../storage';
import './job-types';

/** How long ffmpeg may take for a question's frame (a job: it may wait its turn at low priority). */
const FRAME_TIMEOUT_MS = 30_000;

/** The frame of a question's moment: a still (media/stills.ts), bounded in time. */
export function takeFrame(
  ctx: AppContext,
  tools: MediaTools,
  store: MediaStore,
  video: { id: string; renditions: number[] },
  t: number,
  signal: AbortSignal,
): Promise<Buffer | undefined> {
  return takeStill(ctx, tools, store, video, t, {
    signal: AbortSignal.any([signal, AbortSignal.timeout(FRAME_TIMEOUT_MS)]),
    lowPriority: true,
  });
}

/**
 * Job `learning.frame`: stores the frame of a question's moment beside the video's files and notes
 * when. A question or video gone meanwhile, or a video with nothing to take it from, is done.
 */
export function frameHandler(ctx: AppContext, deps: { tools: MediaTools }): JobHandler<'learning.frame'> {
  return async ({ questionId }, { signal, log }) => {
    const [row] = await ctx.db
      .select({
        t: questions.t,
        frameAt: questions.frameAt,
        store: videos.store,
        // As takeFrame takes it.
        video: { id: videos.id, renditions: videos.renditions },
      })
      .from(questions)
      .innerJoin(videos, eq(videos.id, questions.videoId))
      .where(eq(questions.id, questionId))
      .limit(1);
    if (!row || row.frameAt) return;
    const store = ctx.media.of(row.store);
    const frame = await takeFrame(ctx, deps.tools, store, row.video, row.t, signal);
    if (!frame) {
      log.info({ questionId, videoId: row.video.id }, 'no frame for the question: nothing to take it from');
      return;
    }
    await store.put(mediaKeys.questionFrame(row.video.id, questionId), frame, { contentType: 'image/jpeg' });
    await ctx.db.update(questions).set({ frameAt: ctx.clock.now() }).where(eq(questions.id, questionId));
  };
}
