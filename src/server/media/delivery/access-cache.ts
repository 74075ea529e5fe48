import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock';
import type { PlaybackGrant } from './tokens';

/** A revoke, an expiry or closing time stops playback within this long. */
export const ACCESS_CACHE_TTL_MS = 60_000;
const MAX_ENTRIES = 100_000;

export interface AccessDecision {
  allowed: boolean;
  /** When the decision stops being true by itself (closing time, course expiry), if sooner than the TTL. */
  validUntil?: number;
}

interface Entry {
  allowed: boolean;
  expiresAt: number;
  refreshAt: number;
  refreshing: boolean;
}

/**
 * Access decisions per (video, user), at most `ttlMs` old, so segment requests skip the database.
 * An entry in use is refreshed in the background once half its life is gone: a viewer fetching a
 * segment every few seconds never waits on the database, and a revoke still lands within `ttlMs`.
 */
export class AccessCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly decide: (videoId: string, grant: PlaybackGrant) => Promise<AccessDecision>,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly ttlMs = ACCESS_CACHE_TTL_MS,
  ) {}

  /** The cached answer, or a fresh one from the database when there is none young enough. */
  check(videoId: string, grant: PlaybackGrant): boolean | Promise<boolean> {
    const key = `${videoId}|${grant.userId}`;
    const now = this.clock.now().getTime();
    const entry = this.entries.get(key);
    if (entry && now < entry.expiresAt) {
      if (now >= entry.refreshAt && !entry.refreshing) {
        entry.refreshing = true;
        this.refresh(key, videoId, grant).catch((error) => {
          entry.refreshing = false;
          this.log.warn({ err: error }, 'access refresh failed; the cached decision stands until it expires');
        });
      }
      return entry.allowed;
    }
    return this.refresh(key, videoId, grant);
  }

  /**
   * The cached answer if one is young enough, else undefined (never waits: the caller takes the slow
   * path, which asks the database). Starts the background refresh like `check` does.
   */
  peek(videoId: string, grant: PlaybackGrant): boolean | undefined {
    const entry = this.entries.get(`${videoId}|${grant.userId}`);
    if (!entry || this.clock.now().getTime() >= entry.expiresAt) return undefined;
    const answer = this.check(videoId, grant);
    return typeof answer === 'boolean' ? answer : undefined;
  }

  /** Records a decision just taken elsewhere (the master playlist checks access itself). */
  remember(videoId: string, userId: string, decision: AccessDecision): void {
    this.store(`${videoId}|${userId}`, decision, this.clock.now().getTime());
  }

  /** Drops every decision about a video (it was deleted here). */
  forgetVideo(videoId: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${videoId}|`)) this.entries.delete(key);
  }

  private async refresh(key: string, videoId: string, grant: PlaybackGrant): Promise<boolean> {
    const decidedAt = this.clock.now().getTime();
    const decision = await this.decide(videoId, grant);
    this.store(key, decision, decidedAt);
    return decision.allowed;
  }

  private store(key: string, decision: AccessDecision, decidedAt: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.prune(decidedAt);
    const expiresAt = Math.min(decidedAt + this.ttlMs, decision.validUntil ?? Infinity);
    this.entries.set(key, {
      allowed: decision.allowed,
      expiresAt,
      refreshAt: decidedAt + (expiresAt - decidedAt) / 2,
      refreshing: false,
    });
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}
