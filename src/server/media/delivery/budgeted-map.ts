/**
 * Entries kept in the order they were stored, within a budget of size (characters or bytes, as the
 * caller counts them) and of entries: storing one drops the oldest first, until it fits, and also
 * the oldest the caller says are stale (with one lifetime for all, the order they expire too).
 * The per-session playlists and links of delivery keep their memory bounded with it.
 */
export class BudgetedMap<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private used = 0;

  constructor(private readonly limits: { maxSize: number; maxEntries?: number }) {}

  /** The size held, as the callers counted it. */
  get usedSize(): number {
    return this.used;
  }

  get count(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Stores `value` as `size`; one larger than the whole budget is not kept (nor what it replaced). */
  set(key: string, value: V, size: number, stale?: (value: V) => boolean): void {
    this.delete(key);
    if (size > this.limits.maxSize) return;
    const maxEntries = this.limits.maxEntries ?? Infinity;
    for (const [oldest, entry] of this.entries) {
      if (!stale?.(entry.value) && this.used + size <= this.limits.maxSize && this.entries.size < maxEntries)
        break;
      this.delete(oldest);
    }
    this.entries.set(key, { value, size });
    this.used += size;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.size;
  }
}
