import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { MemoryRateCounter, RedisRateCounter, type RateCounter } from './rate-counter';

async function redisAvailable(): Promise<boolean> {
  const probe = new Redis('redis://127.0.0.1:6379', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const counters: RateCounter[] = [];
afterAll(async () => {
  for (const c of counters) await c.close();
});

describe('MemoryRateCounter', () => {
  it('counts within a window and starts over after it', async () => {
    const clock = new FakeClock('2026-01-01T00:00:00Z');
    const counter = new MemoryRateCounter(clock);
    expect((await counter.hit('k', 1000)).count).toBe(1);
    expect(await counter.hit('k', 1000)).toEqual({ count: 2, resetInMs: 1000 });
    clock.advance(400);
    expect(await counter.peek('k')).toEqual({ count: 2, resetInMs: 600 });
    clock.advance(600);
    expect(await counter.peek('k')).toEqual({ count: 0, resetInMs: 0 });
    expect((await counter.hit('k', 1000)).count).toBe(1);
    await counter.reset('k');
    expect((await counter.peek('k')).count).toBe(0);
  });
});

describe.runIf(await redisAvailable())('RedisRateCounter (shared between nodes)', () => {
  it('shares counts between two clients and expires with the window', async () => {
    const a = new RedisRateCounter('redis://127.0.0.1:6379');
    const b = new RedisRateCounter('redis://127.0.0.1:6379');
    counters.push(a, b);
    const key = `test:${randomBytes(4).toString('hex')}`;
    await a.hit(key, 300);
    const second = await b.hit(key, 300);
    expect(second.count).toBe(2);
    expect(second.resetInMs).toBeGreaterThan(0);
    expect(second.resetInMs).toBeLessThanOrEqual(300);
    expect((await a.peek(key)).count).toBe(2);
    await new Promise((r) => setTimeout(r, 350));
    expect((await b.peek(key)).count).toBe(0);
    await a.hit(key, 10_000);
    await b.reset(key);
    expect((await a.peek(key)).count).toBe(0);
  });
});
