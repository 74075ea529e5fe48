/**
 * Child playlists made for one session, reused for a few minutes (presigning every segment of a long
 * playlist is not free), within a byte budget: with S3 links a playlist is about a megabyte, so the
 * count bound it had let thousands of sessions hold gigabytes. Entries are kept in the order they
 * were made, which with one lifetime for all is also the order they expire: the oldest leave first,
 * expired or pushed out by the budget.
 */
export class ChildPlaylistCache {
  private readonly entries = new Map<string, { text: string; until: number; bytes: number }>();
  private used = 0;

  constructor(private readonly limits: { maxBytes: number; ttlMs: number }) {}

  /** Bytes held (keys and texts; playlists are ASCII, one byte a character in V8). */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The playlist stored under `key`, while it is younger than the lifetime. */
  get(key: string, nowMs: number): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > nowMs) return entry.text;
    this.drop(key);
    return undefined;
  }

  /** Keeps `text` for the lifetime, first dropping what expired and, past the budget, the oldest. */
  set(key: string, text: string, nowMs: number): void {
    this.drop(key);
    const bytes = key.length + text.length;
    if (bytes > this.limits.maxBytes) return;
    for (const [oldest, entry] of this.entries) {
      if (entry.until > nowMs && this.used + bytes <= this.limits.maxBytes) break;
      this.drop(oldest);
    }
    this.entries.set(key, { text, until: nowMs + this.limits.ttlMs, bytes });
    this.used += bytes;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }
}
