import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { MemoryRateCounter } from './rate-counter';

const MINUTE = 60_000;

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

  it('keeps at most its cap of keys, forgetting the least recently used first', async () => {
    const counter = new MemoryRateCounter(new FakeClock('2026-01-01T00:00:00Z'), 3);
    for (const key of ['a', 'b', 'c']) await counter.hit(key, MINUTE);
    await counter.hit('a', MINUTE); // a is now the most recent, b the least
    await counter.hit('d', MINUTE);
    expect((await counter.peek('b')).count).toBe(0);
    expect(counter.size).toBe(3);
    expect((await counter.peek('a')).count).toBe(2);
    expect((await counter.peek('c')).count).toBe(1);
    expect((await counter.peek('d')).count).toBe(1);
    // A thousand new keys later the map is still the cap, the newest three kept.
    for (let i = 0; i < 1000; i++) await counter.hit(`new:${i}`, MINUTE);
    expect(counter.size).toBe(3);
    expect((await counter.peek('new:999')).count).toBe(1);
    expect((await counter.peek('a')).count).toBe(0);
  });

  it('forgets a key whose count a give-back takes to zero', async () => {
    const counter = new MemoryRateCounter(new FakeClock('2026-01-01T00:00:00Z'), 3);
    await counter.hit('k', MINUTE);
    await counter.hit('k', MINUTE);
    await counter.giveBack('k');
    expect(await counter.peek('k')).toEqual({ count: 1, resetInMs: MINUTE });
    await counter.giveBack('k');
    expect(await counter.peek('k')).toEqual({ count: 0, resetInMs: 0 });
    expect(counter.size).toBe(0);
  });
});
