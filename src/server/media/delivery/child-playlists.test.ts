import { describe, expect, it } from 'vitest';
import { ChildPlaylistCache } from './child-playlists';

const MINUTE = 60_000;

/** A playlist text of `bytes` characters (keys here are 2 characters: `s1`…). */
const playlist = (bytes: number) => '#'.repeat(bytes);

describe('ChildPlaylistCache', () => {
  it('answers a playlist for its lifetime only, then lets its bytes go', () => {
    const cache = new ChildPlaylistCache({ maxBytes: 10_000, ttlMs: 5 * MINUTE });
    cache.set('s1', playlist(98), 0);
    expect(cache.get('s1', 5 * MINUTE - 1)).toBe(playlist(98));
    expect(cache.bytes).toBe(100);
    expect(cache.get('s1', 5 * MINUTE)).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it('stays within its byte budget, the oldest playlists leaving first', () => {
    const cache = new ChildPlaylistCache({ maxBytes: 1_000, ttlMs: 5 * MINUTE });
    for (let i = 1; i <= 4; i++) cache.set(`s${i}`, playlist(298), i);
    // 4 x 300 bytes do not fit in 1,000: the first made is gone, the other three stay.
    expect(cache.bytes).toBe(900);
    expect(cache.get('s1', 10)).toBeUndefined();
    expect(['s2', 's3', 's4'].map((key) => cache.get(key, 10)?.length)).toEqual([298, 298, 298]);
    // One big playlist pushes out as many old ones as it needs.
    cache.set('s5', playlist(698), 20);
    expect([cache.size, cache.bytes]).toEqual([2, 1_000]);
    expect(cache.get('s4', 20)).toBeDefined();
  });

  it('drops expired playlists as new ones come, even with room to spare', () => {
    const cache = new ChildPlaylistCache({ maxBytes: 1_000_000, ttlMs: 5 * MINUTE });
    cache.set('s1', playlist(98), 0);
    cache.set('s2', playlist(98), MINUTE);
    cache.set('s3', playlist(98), 5 * MINUTE);
    expect([cache.size, cache.bytes]).toEqual([2, 200]);
  });

  it('keeps no playlist bigger than the whole budget, and counts a replaced one once', () => {
    const cache = new ChildPlaylistCache({ maxBytes: 1_000, ttlMs: 5 * MINUTE });
    cache.set('s1', playlist(98), 0);
    cache.set('huge', playlist(5_000), 0);
    expect(cache.get('huge', 0)).toBeUndefined();
    expect(cache.get('s1', 0)).toBeDefined();
    cache.set('s1', playlist(198), 1);
    expect([cache.size, cache.bytes, cache.get('s1', 1)?.length]).toEqual([1, 200, 198]);
  });
});
