/**
 * The evening-rush load scenario (bench/rush.ts) as a test, in `npm run test:scale`: 300 students
 * signing in over a minute and watching for another, while an admin uploads a lecture. It fails when
 * a viewer drops, a request errors or playback stalls. The API p99 target (under 200 ms) is printed
 * with the table but judged by `npm run bench -- rush`: on a shared 2-core machine one disk stall
 * moves a p99 from 80 ms to a second between identical runs, and a timed test that flakes would
 * block CI without saying anything about the code.
 */
import { describe, expect, it } from 'vitest';
import { API_KINDS, API_P99_TARGET_MS, runRush } from '../../bench/rush';

describe('the evening rush on this machine', () => {
  it('serves 300 viewers at playback pace with no errors and no stalls', async () => {
    const { checks, result } = await runRush({
      viewers: 300,
      rampSeconds: 60,
      sustainSeconds: 60,
      uploadMbit: 40,
    });
    expect(checks.filter((c) => !c.timing && !c.pass)).toEqual([]);
    // Slow code still fails: a stall moves the tail, not the median, nor the tail tenfold.
    for (const kind of API_KINDS) {
      const stats = result.kinds[kind];
      expect(stats, kind).toBeDefined();
      expect(stats!.p50, `${kind} p50`).toBeLessThan(API_P99_TARGET_MS);
      expect(stats!.p99, `${kind} p99`).toBeLessThan(10 * API_P99_TARGET_MS);
    }
  }, 600_000);
});
