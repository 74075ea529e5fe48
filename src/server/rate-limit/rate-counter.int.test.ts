import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { describeWhenReady, redisMissing } from '../../../test/support/preconditions';
import { RedisRateCounter, type RateCounter } from './rate-counter';

const counters: RateCounter[] = [];
afterAll(async () => {
  for (const c of counters) await c.close();
});

describeWhenReady('RedisRateCounter (shared between nodes)', await redisMissing(), () => {
  it('shares counts between two clients and expires with the window', async () => {
    const a = new RedisRateCounter('redis://127.0.0.1:6379');
    const b = new RedisRateCounter('redis://127.0.0.1:6379');
    counters.push(a, b);
    const key = `test:${randomBytes(4).toString('hex')}`;
    // A window long enough that a loaded machine's pause between the two hits cannot outlast it
    // (300 ms did, at a load of 15), short enough to wait out.
    const windowMs = 1_500;
    await a.hit(key, windowMs);
    const second = await b.hit(key, windowMs);
    expect(second.count).toBe(2);
    expect(second.resetInMs).toBeGreaterThan(0);
    expect(second.resetInMs).toBeLessThanOrEqual(windowMs);
    expect((await a.peek(key)).count).toBe(2);
    await new Promise((r) => setTimeout(r, windowMs + 50));
    expect((await b.peek(key)).count).toBe(0);
    await a.hit(key, 10_000);
    await b.reset(key);
    expect((await a.peek(key)).count).toBe(0);
  });

  it('forgets a key whose count a give-back takes to zero, as the memory counter does', async () => {
    const counter = new RedisRateCounter('redis://127.0.0.1:6379');
    counters.push(counter);
    const key = `test:${randomBytes(4).toString('hex')}`;
    await counter.hit(key, 60_000);
    await counter.hit(key, 60_000);
    await counter.giveBack(key);
    expect((await counter.peek(key)).count).toBe(1);
    await counter.giveBack(key);
    expect(await counter.peek(key)).toEqual({ count: 0, resetInMs: 0 });
  });
});
