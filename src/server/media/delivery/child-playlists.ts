import { BudgetedMap } from './budgeted-map';

/**
 * Child playlists made for one session, reused for a few minutes (presigning every segment of a long
 * playlist is not free), within a byte budget: with S3 links a playlist is about a megabyte, so the
 * count bound it had let thousands of sessions hold gigabytes. Entries are kept in the order they
 * were made, which with one lifetime for all is also the order they expire: the oldest leave first,
 * expired or pushed out by the budget.
 */
export class ChildPlaylistCache {
  private readonly entries: BudgetedMap<{ text: string; until: number }>;

  constructor(private readonly limits: { maxBytes: number; ttlMs: number }) {
    this.entries = new BudgetedMap({ maxSize: limits.maxBytes });
  }

  /** Bytes held (keys and texts; playlists are ASCII, one byte a character in V8). */
  get bytes(): number {
    return this.entries.usedSize;
  }

  get size(): number {
    return this.entries.count;
  }

  /** The playlist stored under `key`, while it is younger than the lifetime. */
  get(key: string, nowMs: number): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > nowMs) return entry.text;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps `text` for the lifetime, first dropping what expired and, past the budget, the oldest. */
  set(key: string, text: string, nowMs: number): void {
    const until = nowMs + this.limits.ttlMs;
    this.entries.set(key, { text, until }, key.length + text.length, (entry) => entry.until <= nowMs);
  }
}
