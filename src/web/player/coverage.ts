/**
 * The parts of a video played in this page visit, as merged [from, to) intervals: replaying a part
 * does not count twice, and a seek adds nothing.
 */
export class Coverage {
  private spans: [number, number][] = [];

  add(from: number, to: number): void {
    if (!(to > from)) return;
    const merged: [number, number][] = [];
    let [start, end] = [from, to];
    for (const [a, b] of this.spans) {
      if (b < start || a > end) merged.push([a, b]);
      else [start, end] = [Math.min(a, start), Math.max(b, end)];
    }
    merged.push([start, end]);
    this.spans = merged.sort((x, y) => x[0] - y[0]);
  }

  /** Seconds covered. */
  total(): number {
    return this.spans.reduce((sum, [a, b]) => sum + (b - a), 0);
  }
}
