import { and, eq, sql } from 'drizzle-orm';
import { mediaMessages } from '../../contract/media';
import type { AppContext } from '../context';
import { searchEntries } from '../db/schema';
import { notFound, unavailable } from '../errors';
import type { MediaTools } from '../media/ffmpeg';
import { takeStill } from '../media/stills';
import { mediaKeys, type MediaStore } from '../media/store';
import type { PlaybackVideo } from '../videos/access';

/** Stills made at once per process: each is one ffmpeg run (a seek in the source, or one segment). */
const MAKING_AT_ONCE = 2;
/** Stills waiting to be made: past this a request is told to come back (503) rather than pile up. */
const MAX_WAITING = 32;
const FRAME_TIMEOUT_MS = 20_000;

/**
 * The still of a search hit (`GET /api/videos/:videoId/frame?t=`): made once with ffmpeg from the
 * source while it is kept, else from the one segment of the top unmarked rendition that plays then,
 * and kept with the video's files (`videos/<id>/frames/<second>.jpg`, deleted with the video).
 * Bounded: only seconds where an index entry of the video starts (what hits point at) have a still,
 * at most MAKING_AT_ONCE are made at a time, and the same still asked twice is made once.
 */
export class SearchFrames {
  private making = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly tools: MediaTools,
  ) {}

  /** The store key of the still at `second` of `video`, made if needed; 404 when there is none to make. */
  async frameKey(videoId: string, video: PlaybackVideo, second: number): Promise<string> {
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
    let made = this.inFlight.get(key);
    if (!made) {
      if (this.waiting.length >= MAX_WAITING) throw unavailable(mediaMessages.storageUnavailable);
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
