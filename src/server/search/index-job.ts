import { eq } from 'drizzle-orm';
import type { SearchSource } from '../../contract/search';
import type { AppContext } from '../context';
import { videos } from '../db/schema';
import { oneLine } from '../jobs/run-progress';
import { isRetryLater, PermanentJobError, RetryLaterError, type JobHandler } from '../jobs/types';
import { indexAllCaptions, indexStateOf, setIndexState } from './index-store';
import { indexScreen } from './index-screen';
import { indexSpeech } from './index-speech';
import { SEARCH_ATTEMPTS } from './job-types';
import './job-types';
import { readableInput, type Input, type SearchDeps } from './source-input';

/**
 * Job `search.index`: a video's captions, text on screen and speech, each source's state saved for
 * the admin. A failing source is marked failed with its reason (on the last attempt) and the
 * others still run; Tesseract missing makes the job wait.
 */
export function searchIndexHandler(ctx: AppContext, deps: SearchDeps): JobHandler<'search.index'> {
  return async ({ videoId, force = false }, run) => {
    const [video] = await ctx.db
      .select({
        id: videos.id,
        status: videos.status,
        store: videos.store,
        renditions: videos.renditions,
        durationSeconds: videos.durationSeconds,
      })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!video || video.status === 'failed') return;
    if (video.status !== 'ready') throw new RetryLaterError('the video is not packaged yet');
    const { metrics } = ctx;
    /** Times one source's work: its duration by outcome, and the entries it wrote. */
    const measured = async (source: SearchSource, work: () => Promise<number | undefined>) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const written = await work();
        if (written === undefined) return;
        metrics.searchIndexDuration.observe({ source, outcome: 'done' }, seconds());
        metrics.searchEntries.inc({ source }, written);
      } catch (error) {
        const stopped = run.signal.aborted || isRetryLater(error);
        metrics.searchIndexDuration.observe({ source, outcome: stopped ? 'stopped' : 'failed' }, seconds());
        throw error;
      }
    };
    if (force || !(await indexStateOf(ctx.db, videoId, 'captions')))
      await measured(
        'captions',
        async () => (await indexAllCaptions(ctx.db, videoId, ctx.clock.now())).entries,
      );

    const name = `${videoId}.search`;
    let input: Promise<Input> | undefined;
    const store = ctx.media.of(video.store);
    const inputOnce = () => (input ??= readableInput(ctx, store, videoId, video.renditions, name));
    const failures: string[] = [];
    try {
      for (const [source, index] of [
        ['screen', indexScreen],
        ['speech', indexSpeech],
      ] as const) {
        try {
          await measured(source, () => index(ctx, deps, video, inputOnce, force, run));
        } catch (error) {
          if (run.signal.aborted || isRetryLater(error)) throw error;
          const final = error instanceof PermanentJobError || run.attempt >= SEARCH_ATTEMPTS;
          if (!final) throw error;
          await setIndexState(
            ctx.db,
            videoId,
            source,
            { status: 'failed', error: oneLine(error) },
            ctx.clock.now(),
          );
          failures.push(`${source}: ${oneLine(error)}`);
        }
      }
    } finally {
      await ctx.media.scratch.remove(name, `${name}.source`, `${name}.ts`);
    }
    if (failures.length) throw new PermanentJobError(failures.join('; '));
  };
}
