import type { Redis } from 'ioredis';
import type { Clock } from '../clock';

/** Fixed-window counters shared by every node (Redis) or kept by this process (memory). */
export interface RateCounter {
  /** Adds one to `key` and returns the new count and the milliseconds until the window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /** Takes back one `hit` of `key` (an attempt that turned out to be no failure); a window back at zero is gone. */
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

/**
 * Most keys the memory counter holds (under 30 MB of sign-in keys): past it the least recently
 * used key is forgotten, its window starting over. Sign-in makes a key per name only within a
 * client's own window, so filling the map takes many addresses, each paying password checks; the
 * accounts' day budgets live in their rows and are never forgotten.
 */
export const MEMORY_COUNTER_KEYS = 100_000;

export class MemoryRateCounter implements RateCounter {
  /** In least recently used order: a hit moves its key to the end. */
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys = MEMORY_COUNTER_KEYS,
  ) {}

  /** Keys held now. */
  get size(): number {
    return this.windows.size;
  }

  async hit(key: string, windowMs: number) {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    this.windows.delete(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
    }
    window.count += 1;
    this.windows.set(key, window);
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async giveBack(key: string) {
    const window = this.windows.get(key);
    if (!window) return;
    if (window.count > 1) window.count -= 1;
    else this.windows.delete(key);
  }

  async peek(key: string) {
    const now = this.clock.now().getTime();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      this.windows.delete(key);
      return { count: 0, resetInMs: 0 };
    }
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  async ping() {}

  async close() {}
}

/** DECR down to one, then DEL: a window given back to zero is gone, as in the memory counter. */
const GIVE_BACK = `local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 1 then return redis.call('DECR', KEYS[1]) end
if n == 1 then redis.call('DEL', KEYS[1]) end
return 0`;

export class RedisRateCounter implements RateCounter {
  /** ioredis is loaded only where REDIS_URL is set, not at every start of a server or a CLI run. */
  private readonly client: Promise<Redis>;

  constructor(url: string) {
    this.client = import('ioredis').then(
      ({ Redis }) =>
        new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, keyPrefix: 'lectern:rate:' }),
    );
  }

  async hit(key: string, windowMs: number) {
    const redis = await this.client;
    const [[, count], , [, ttl]] = (await redis
      .multi()
      .incr(key)
      .pexpire(key, windowMs, 'NX')
      .pttl(key)
      .exec()) as [[null, number], [null, number], [null, number]];
    return { count, resetInMs: Math.max(ttl, 0) };
  }

  async giveBack(key: string) {
    // Only an existing window: a DECR on a key that just expired would leave -1 with no expiry.
    await (await this.client).eval(GIVE_BACK, 1, key);
  }

  async peek(key: string) {
    const redis = await this.client;
    const [[, count], [, ttl]] = (await redis.multi().get(key).pttl(key).exec()) as [
      [null, string | null],
      [null, number],
    ];
    return { count: Number(count ?? 0), resetInMs: Math.max(ttl, 0) };
  }

  async reset(key: string) {
    await (await this.client).del(key);
  }

  async ping() {
    await (await this.client).ping();
  }

  async close() {
    (await this.client).disconnect();
  }
}
