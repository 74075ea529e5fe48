import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeStatusList, randomFreeIndex } from './status-list';

describe('status list indices', () => {
  it('hands out indices at random, never one in use: the order of issue does not show', async () => {
    const size = 131_072;
    const used = new Set<number>();
    const given: number[] = [];
    for (let i = 0; i < 200; i++) {
      const index = await randomFreeIndex(size, async (n) => used.has(n));
      used.add(index);
      given.push(index);
    }
    expect(new Set(given).size).toBe(200);
    expect(given.every((n) => Number.isInteger(n) && n >= 0 && n < size)).toBe(true);
    // In order they would be 0..199; drawn at random they spread over the list (200 draws below
    // 1,000 or all in rising order: odds far below 1 in 10^100).
    expect(Math.max(...given)).toBeGreaterThan(1_000);
    expect(given.some((n, i) => i > 0 && n < given[i - 1]!)).toBe(true);
  });

  it('draws again while the index drawn is in use', async () => {
    const draws = [7, 3, 7, 9];
    const index = await randomFreeIndex(
      16,
      async (n) => n === 7 || n === 3,
      () => draws.shift()!,
    );
    expect(index).toBe(9);
    expect(draws).toEqual([]);
  });

  it('sets the bit of each revoked index, the first byte’s high bit index 0', () => {
    const bits = gunzipSync(Buffer.from(encodeStatusList(16, [0, 9]).slice(1), 'base64url'));
    expect([...bits]).toEqual([0x80, 0x40]);
  });
});
