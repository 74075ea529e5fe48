/**
 * The segment links last made for a session's playlist of one rendition, so that the next version
 * of a growing live playlist signs only its new segments: each published segment is a new version,
 * and every viewer's next reload used to sign the whole class again (a 90-minute class is 2,700
 * links a reload). Links are reused while younger than `reuseMs` (as a kept child playlist is) and
 * only for the files they were made for, in the same order; within a budget of characters, the
 * oldest entries leaving first.
 */
export class LinkReuse {
  private readonly entries = new Map<
    string,
    { files: string[]; uris: string[]; madeAt: number; chars: number }
  >();
  private used = 0;

  constructor(private readonly limits: { maxChars: number; reuseMs: number }) {}

  get chars(): number {
    return this.used;
  }

  /** `files`' links: those kept for a prefix of them, then `make` for the rest. */
  async links(
    key: string,
    files: string[],
    nowMs: number,
    make: (files: string[]) => Promise<string[]>,
  ): Promise<string[]> {
    const kept = this.entries.get(key);
    let reused = 0;
    if (kept && nowMs - kept.madeAt < this.limits.reuseMs && kept.files.length <= files.length)
      while (reused < kept.files.length && kept.files[reused] === files[reused]) reused++;
    if (!kept || reused < kept.files.length) reused = 0;
    const uris = reused ? [...kept!.uris, ...(await make(files.slice(reused)))] : await make(files);
    // The oldest reuse time stays: links never outlive what a fresh playlist's would by more than reuseMs.
    this.keep(key, { files, uris, madeAt: reused ? kept!.madeAt : nowMs });
    return uris;
  }

  private keep(key: string, entry: { files: string[]; uris: string[]; madeAt: number }): void {
    this.drop(key);
    const chars = key.length + entry.uris.reduce((sum, uri) => sum + uri.length, 0);
    if (chars > this.limits.maxChars) return;
    for (const oldest of this.entries.keys()) {
      if (this.used + chars <= this.limits.maxChars) break;
      this.drop(oldest);
    }
    this.entries.set(key, { ...entry, chars });
    this.used += chars;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.chars;
  }
}
