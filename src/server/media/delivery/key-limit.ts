const WINDOW_MS = 60_000;
/** Keys a seek or two and a page reload fetch on top of steady playback. */
const BURST = 8;
const MAX_SESSIONS = 100_000;

/**
 * Key requests per session over the last minute. A player at 2x speed needs one key per
 * KEY_ROTATION_SECONDS / 2 of wall time (renditions share keys, hls.js keeps the ones it has), so
 * anything much faster is a downloader. Per process: behind N nodes a downloader gets N times the
 * rate, still far below what bulk downloading needs.
 */
export class KeyRateLimit {
  private readonly hits = new Map<string, number[]>();
  readonly perWindow: number;

  constructor(rotationSeconds: number) {
    this.perWindow = Math.ceil(WINDOW_MS / ((rotationSeconds * 1000) / 2)) + BURST;
  }

  /** Counts a request; 'allowed', 'refused', or 'refused-first' for the first refusal of a burst. */
  hit(session: string, nowMs: number): 'allowed' | 'refused' | 'refused-first' {
    let times = this.hits.get(session);
    if (!times) {
      if (this.hits.size >= MAX_SESSIONS) this.prune(nowMs);
      this.hits.set(session, (times = []));
    }
    while (times.length && times[0]! <= nowMs - WINDOW_MS) times.shift();
    if (times.length >= this.perWindow) {
      // Refused requests count too: a downloader that keeps going stays refused.
      const first = times.length === this.perWindow;
      if (times.length < this.perWindow * 2) times.push(nowMs);
      return first ? 'refused-first' : 'refused';
    }
    times.push(nowMs);
    return 'allowed';
  }

  private prune(nowMs: number): void {
    for (const [session, times] of this.hits)
      if (!times.length || times.at(-1)! <= nowMs - WINDOW_MS) this.hits.delete(session);
    if (this.hits.size >= MAX_SESSIONS) this.hits.clear();
  }
}
