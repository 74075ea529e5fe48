import { BudgetedMap } from './budgeted-map';

/**
 * The segment links last made for a session's playlist of one rendition, so that the next version
 * of a growing live playlist signs only its new segments: each published segment is a new version,
 * and every viewer's next reload used to sign the whole class again (a 90-minute class is 2,700
 * links a reload). Links are reused while younger than `reuseMs` (as a kept child playlist is) and
 * only for the files they were made for, in the same order. Links are kept only for a playlist
 * seen to grow (a packaged lecture's never does: for it only its file list, shared, is noted),
 * within a budget of characters and of entries, the oldest leaving first.
 */
export class LinkReuse {
  private readonly entries: BudgetedMap<{ files: string[]; uris: string[] | undefined; madeAt: number }>;

  constructor(private readonly limits: { maxChars: number; maxEntries: number; reuseMs: number }) {
    this.entries = new BudgetedMap({ maxSize: limits.maxChars, maxEntries: limits.maxEntries });
  }

  get chars(): number {
    return this.entries.usedSize;
  }

  /** `files`' links: those kept for a prefix of them, then `make` for the rest. */
  async links(
    key: string,
    files: string[],
    nowMs: number,
    make: (files: string[]) => Promise<string[]>,
  ): Promise<string[]> {
    const kept = this.entries.get(key);
    let common = 0;
    if (kept && nowMs - kept.madeAt < this.limits.reuseMs && kept.files.length <= files.length)
      while (common < kept.files.length && kept.files[common] === files[common]) common++;
    const grew = kept !== undefined && common === kept.files.length && files.length > common;
    const reused = grew && kept.uris ? common : 0;
    const uris = reused ? [...kept!.uris!, ...(await make(files.slice(reused)))] : await make(files);
    // The oldest signing time stays: no link is older than reuseMs when handed out.
    const madeAt = reused ? kept!.madeAt : nowMs;
    this.keep(key, { files, uris: grew || kept?.uris ? uris : undefined, madeAt });
    return uris;
  }

  private keep(key: string, entry: { files: string[]; uris: string[] | undefined; madeAt: number }): void {
    const chars = key.length + (entry.uris?.reduce((sum, uri) => sum + uri.length, 0) ?? 0);
    this.entries.set(key, entry, chars);
  }
}
