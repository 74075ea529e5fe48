type Span = [number, number];

/** Adds [from, to) to sorted, merged `spans`: overlapping or touching spans become one. */
function merge(spans: Span[], from: number, to: number): Span[] {
  const merged: Span[] = [];
  let [start, end] = [from, to];
  for (const [a, b] of spans) {
    if (b < start || a > end) merged.push([a, b]);
    else [start, end] = [Math.min(a, start), Math.max(b, end)];
  }
  merged.push([start, end]);
  return merged.sort((x, y) => x[0] - y[0]);
}

/**
 * The parts of a video played in this page visit, as merged [from, to) intervals: replaying a part
 * does not count twice, and a seek adds nothing. Also keeps what was played since the last `take`,
 * which a progress save sends as its `ranges`.
 */
export class Coverage {
  private spans: Span[] = [];
  private pending: Span[] = [];

  add(from: number, to: number): void {
    if (!(to > from)) return;
    this.spans = merge(this.spans, from, to);
    this.pending = merge(this.pending, from, to);
  }

  /** Seconds covered in this visit. */
  total(): number {
    return this.spans.reduce((sum, [a, b]) => sum + (b - a), 0);
  }

  /** Whether anything was played since the last `take`. */
  hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** What was played since the last `take` (ordered, not overlapping, to a millisecond), and forgets it. */
  take(): Span[] {
    const out = this.pending
      .map(([a, b]): Span => [Math.round(a * 1000) / 1000, Math.round(b * 1000) / 1000])
      .filter(([a, b]) => b > a);
    this.pending = [];
    return out;
  }

  /** Puts back what a save that never reached the server had taken, to go with the next one. */
  giveBack(spans: Span[]): void {
    for (const [a, b] of spans) this.pending = merge(this.pending, a, b);
  }
}

/**
 * Turns a video element's time updates into played spans for a `Coverage`: time that moved no
 * faster than the clock allows (times the speed) was played; a bigger jump is a seek. Counting
 * starts at a seek's target, and goes on while the element still says it is seeking: WebKit plays on
 * from the target before it fires `seeked` (2 s of a rewatch went uncounted there, and the student
 * was told to watch the part again).
 */
export class PlayedTime {
  private lastTime: number | null = null;
  private lastWall = 0;

  constructor(private readonly coverage: Coverage) {}

  /** A time update: `t` the element's time, `now` the wall clock in milliseconds. */
  update(t: number, now: number, { paused, rate }: { paused: boolean; rate: number }): void {
    if (!paused && this.lastTime !== null) {
      const limit = ((now - this.lastWall) / 1000) * rate * 1.25 + 0.3;
      const delta = t - this.lastTime;
      if (delta > 0 && delta <= limit) this.coverage.add(this.lastTime, t);
    }
    this.lastTime = t;
    this.lastWall = now;
  }

  /** A seek to `target`: nothing between the old time and it was played. */
  seek(target: number, now: number): void {
    this.lastTime = target;
    this.lastWall = now;
  }
}
