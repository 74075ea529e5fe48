import { describe, expect, it } from 'vitest';
import { LinkReuse } from './link-reuse';

/** Signs by naming the file and the moment, and notes what it signed. */
function signer() {
  const signed: string[] = [];
  return {
    signed,
    at: (nowMs: number) => async (files: string[]) => {
      signed.push(...files);
      return files.map((f) => `${f}?t=${nowMs}`);
    },
  };
}

const limits = { maxChars: 10_000, maxEntries: 100 };

describe('links reused by a growing playlist', () => {
  it('once the playlist has grown, signs only the segments a new version added, and all again once the links are old', async () => {
    const reuse = new LinkReuse({ ...limits, reuseMs: 1_000 });
    const s = signer();
    expect(await reuse.links('v/a', ['s0'], 0, s.at(0))).toEqual(['s0?t=0']);
    // Not seen growing yet: nothing kept but the file list.
    expect(reuse.chars).toBe('v/a'.length);
    expect(await reuse.links('v/a', ['s0', 's1'], 100, s.at(100))).toEqual(['s0?t=100', 's1?t=100']);
    expect(await reuse.links('v/a', ['s0', 's1', 's2'], 500, s.at(500))).toEqual([
      's0?t=100',
      's1?t=100',
      's2?t=500',
    ]);
    expect(s.signed).toEqual(['s0', 's0', 's1', 's2']);
    // reuseMs after the links' first signing: all signed afresh.
    expect(await reuse.links('v/a', ['s0', 's1', 's2', 's3'], 1_100, s.at(1_100))).toEqual([
      's0?t=1100',
      's1?t=1100',
      's2?t=1100',
      's3?t=1100',
    ]);
  });

  it('never reuses links made for other files, another session or a shorter list', async () => {
    const reuse = new LinkReuse({ ...limits, reuseMs: 60_000 });
    const s = signer();
    await reuse.links('v/a', ['s0'], 0, s.at(0));
    await reuse.links('v/a', ['s0', 's1'], 0, s.at(0));
    expect(await reuse.links('v/a', ['s0', 'x1', 's2'], 1, s.at(1))).toEqual(['s0?t=1', 'x1?t=1', 's2?t=1']);
    expect(await reuse.links('v/b', ['s0', 'x1', 's2', 's3'], 2, s.at(2))).toEqual([
      's0?t=2',
      'x1?t=2',
      's2?t=2',
      's3?t=2',
    ]);
    expect(await reuse.links('v/a', ['s0'], 3, s.at(3))).toEqual(['s0?t=3']);
  });

  it('keeps within its budgets, the oldest leaving first', async () => {
    const reuse = new LinkReuse({ maxChars: 30, maxEntries: 100, reuseMs: 60_000 });
    const s = signer();
    for (const key of ['a', 'b', 'c']) {
      await reuse.links(key, ['s0'], 0, s.at(0));
      await reuse.links(key, ['s0', 's1'], 0, s.at(0));
    }
    expect(reuse.chars).toBeLessThanOrEqual(30);
    s.signed.length = 0;
    await reuse.links('a', ['s0', 's1', 's2'], 1, s.at(1));
    expect(s.signed).toEqual(['s0', 's1', 's2']);
    const few = new LinkReuse({ maxChars: 10_000, maxEntries: 2, reuseMs: 60_000 });
    for (const key of ['a', 'b', 'c']) await few.links(key, ['s0'], 0, s.at(0));
    expect(few.chars).toBe(2);
  });
});
