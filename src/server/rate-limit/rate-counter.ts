import { Redis } from 'ioredis';
import type { Clock } from '../clock';

/** Fixed-window counters shared by every node (Redis) or kept by this process (memory). */
export interface RateCounter {
  /** Adds one to `key` and returns the new count and the milliseconds until the window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /** Takes back one `hit` of `key` (an attempt that turned out to be no failure). */
  giveBack(key: string): Promise<void>;
  /** Reads `key` without changing it. */
  peek(key: string): Promise<{ count: number; resetInMs: number }>;
  reset(key: string): Promise<void>;
  /** Resolves when the counters' store answers (Redis PING; memory always does): readiness asks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createRateCounter(redisUrl: string | undefined, clock: Clock): RateCounter {
  return redisUrl ? new RedisRateCounter(redisUrl) : new MemoryRateCounter(clock);
}

export class MemoryRateCounter implements RateCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(private readonly clock: Clock) {}

  async hit(key: string, windowMs: number) {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
      if (this.windows.size > 50_000) this.sweep(now);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async giveBack(key: string) {
    const window = this.windows.get(key);
    if (window && window.count > 0) window.count -= 1;
  }

  async peek(key: string) {
    const now = this.clock.now().getTime();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) return { count: 0, resetInMs: 0 };
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  async ping() {}

  async close() {}

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}

const GIVE_BACK = `if (tonumber(redis.call('GET', KEYS[1]) or '0') > 0) then return redis.call('DECR', KEYS[1]) end return 0`;

export class RedisRateCounter implements RateCounter {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, keyPrefix: 'lectern:rate:' });
  }

  async hit(key: string, windowMs: number) {
    const [[, count], , [, ttl]] = (await this.redis
      .multi()
      .incr(key)
      .pexpire(key, windowMs, 'NX')
      .pttl(key)
      .exec()) as [[null, number], [null, number], [null, number]];
    return { count, resetInMs: Math.max(ttl, 0) };
  }

  async giveBack(key: string) {
    // Only an existing window: a DECR on a key that just expired would leave -1 with no expiry.
    await this.redis.eval(GIVE_BACK, 1, key);
  }

  async peek(key: string) {
    const [[, count], [, ttl]] = (await this.redis.multi().get(key).pttl(key).exec()) as [
      [null, string | null],
      [null, number],
    ];
    return { count: Number(count ?? 0), resetInMs: Math.max(ttl, 0) };
  }

  async reset(key: string) {
    await this.redis.del(key);
  }

  async ping() {
    await this.redis.ping();
  }

  async close() {
    this.redis.disconnect();
  }
}
