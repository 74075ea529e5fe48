import { and, eq, sql } from 'drizzle-orm';
import { mediaMessages } from '../../contract/media';
import { searchMessages } from '../../contract/search';
import type { AppContext } from '../context';
import { searchEntries } from '../db/schema';
import { notFound, tooManyRequests } from '../errors';
import type { MediaTools } from '../storage/ffmpeg';
import { takeStill } from '../media/stills';
import { mediaKeys, type MediaStore } from '../storage';
import type { PlaybackVideo } from '../videos/access';

/** Stills made at once per process: each is one ffmpeg run (a seek in the source, or one segment). */
const MAKING_AT_ONCE = 2;
/** Stills waiting to be made: past this a request is told to come back (429) rather than pile up. */
const MAX_WAITING = 32;
/** A full queue drains within this: 32 stills, two at a time, each well under a second. */
const BUSY_RETRY_SECONDS = 10;
const FRAME_TIMEOUT_MS = 20_000;
/**
 * Stills made for one user in STILLS_WINDOW_MS: a search page's (at most 50) with room to spare,
 * while a loop over every second of a lecture gets six a minute.
 */
export const STILLS_PER_USER = 60;
const STILLS_WINDOW_MS = 10 * 60_000;

/**
 * The still of a search hit (`GET /api/videos/:videoId/frame?t=`): made once with ffmpeg from the
 * source while it is kept, else from the one segment of the top unmarked rendition that plays then,
 * and kept with the video's files (`videos/<id>/frames/<second>.jpg`, deleted with the video).
 * Bounded: only seconds where an index entry of the video starts (what hits point at) have a still,
 * each user has STILLS_PER_USER made in a window (counted before ffmpeg is asked), at most
 * MAKING_AT_ONCE are made at a time with MAX_WAITING waiting, and the same still asked twice is made
 * once. A still already made costs no ffmpeg and is not counted.
 */
export class SearchFrames {
  private making = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly tools: MediaTools,
  ) {}

  /**
   * The store key of the still at `second` of `video`, made for `userId` if needed; 404 when there is
   * none to make, 429 past the user's stills or while the queue is full.
   */
  async frameKey(videoId: string, video: PlaybackVideo, second: number, userId: string): Promise<string> {
    if (video.status !== 'ready') throw notFound(mediaMessages.videoNotFound);
    const [entry] = await this.ctx.db
      .select({ one: sql`1` })
      .from(searchEntries)
      .where(and(eq(searchEntries.videoId, videoId), sql`floor(${searchEntries.startSeconds}) = ${second}`))
      .limit(1);
    if (!entry) throw notFound(mediaMessages.videoNotFound);
    const store = this.ctx.media.of(video.store);
    const key = mediaKeys.frame(videoId, second);
    if (await store.head(key)) return key;
    // Counted before anything waits for ffmpeg: a burst cannot all pass a check of the count.
    const counter = `stills:${userId}`;
    const taken = await this.ctx.rateCounter.hit(counter, STILLS_WINDOW_MS);
    if (taken.count > STILLS_PER_USER)
      throw tooManyRequests(searchMessages.tooManyStills, Math.ceil(taken.resetInMs / 1000));
    let made = this.inFlight.get(key);
    if (!made) {
      if (this.waiting.length >= MAX_WAITING) {
        await this.ctx.rateCounter.giveBack(counter);
        throw tooManyRequests(searchMessages.stillsBusy, BUSY_RETRY_SECONDS);
      }
      made = this.limited(() => this.make(store, videoId, video, second, key)).finally(() =>
        this.inFlight.delete(key),
      );
      this.inFlight.set(key, made);
    }
    await made;
    return key;
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.making >= MAKING_AT_ONCE) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.making++;
    try {
      return await work();
    } finally {
      this.making--;
      this.waiting.shift()?.();
    }
  }

  private async make(store: MediaStore, videoId: string, video: PlaybackVideo, second: number, key: string) {
    // Someone is waiting for it: at normal priority, and never longer than FRAME_TIMEOUT_MS.
    const still = await takeStill(
      this.ctx,
      this.tools,
      store,
      { id: videoId, renditions: video.renditions },
      second,
      {
        signal: AbortSignal.timeout(FRAME_TIMEOUT_MS),
      },
    );
    if (!still) throw notFound(mediaMessages.videoNotFound);
    await store.put(key, still, { contentType: 'image/jpeg' });
  }
}
