/** The time source; injected everywhere so tests can move time instead of waiting for it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move. */
export class FakeClock implements Clock {
  private ms: number;
  constructor(start: Date | string = new Date()) {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  set(time: Date | string): void {
    this.ms = new Date(time).getTime();
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
