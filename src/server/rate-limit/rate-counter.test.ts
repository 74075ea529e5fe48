import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { MemoryRateCounter } from './rate-counter';

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
