import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { videos } from '../../db/schema';
import type { StoreKind } from '../../storage';

const TTL_MS = 60_000;
const MAX_ENTRIES = 100_000;

/**
 * Which store holds each video, remembered for a minute so segment requests need no database. A
 * video changes store only through `media:migrate`, which keeps the old copy until every node has
 * had time to notice; a segment missing from the remembered store is looked up afresh anyway.
 */
export class VideoStoreCache {
  private readonly entries = new Map<string, { kind: StoreKind; until: number; refreshing: boolean }>();

  constructor(private readonly ctx: AppContext) {}

  /**
   * The remembered store, if young enough (never waits). An entry in its second half-life is
   * refreshed in the background, so a video being watched never sends its viewers to the database
   * all at once when the entry would expire. With no bucket configured every video is local.
   */
  peek(videoId: string): StoreKind | undefined {
    if (!this.ctx.media.s3) return 'local';
    const entry = this.entries.get(videoId);
    const now = this.ctx.clock.now().getTime();
    if (!entry || entry.until <= now) return undefined;
    if (!entry.refreshing && entry.until - now < TTL_MS / 2) {
      entry.refreshing = true;
      this.load(videoId).catch(() => (entry.refreshing = false));
    }
    return entry.kind;
  }

  /** The store the video's row names now (undefined: no such video), remembered for the fast path. */
  async load(videoId: string): Promise<StoreKind | undefined> {
    const [row] = await this.ctx.db
      .select({ store: videos.store })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (row) this.remember(videoId, row.store);
    else this.entries.delete(videoId);
    return row?.store;
  }

  remember(videoId: string, kind: StoreKind): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(videoId, { kind, until: this.ctx.clock.now().getTime() + TTL_MS, refreshing: false });
  }

  forget(videoId: string): void {
    this.entries.delete(videoId);
  }
}
