import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, loadChunk } from './lazy-route';

describe('loadChunk', () => {
  it('passes a loaded module through', async () => {
    await expect(loadChunk(async () => ({ default: 42 }))).resolves.toEqual({ default: 42 });
  });

  it('reports a failed import as a chunk load failure', async () => {
    await expect(
      loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
    ).rejects.toBeInstanceOf(ChunkLoadError);
  });

  it('gives up after the 120000 ms load time-out', async () => {
    vi.useFakeTimers();
    try {
      const pending = loadChunk(() => new Promise(() => {}));
      const assertion = expect(pending).rejects.toThrow(/chunk load failure/);
      await vi.advanceTimersByTimeAsync(119_999);
      let settled = false;
      void pending.catch(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await assertion;
    } finally {
      vi.useRealTimers();
    }
  });
});
