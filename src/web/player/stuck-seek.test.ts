import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rescueStuckSeeks, STUCK_SEEK_MS } from './stuck-seek';

/** A media element whose seeks finish only when the test says so; buffered 0.08–20.1 s. */
class FakeMedia extends EventTarget {
  seeking = false;
  seeks: number[] = [];
  ranges: [number, number][] = [[0.08, 20.1]];
  private time = 0;
  buffered = {
    length: 0,
    start: (i: number) => this.ranges[i]![0],
    end: (i: number) => this.ranges[i]![1],
  };
  constructor() {
    super();
    Object.defineProperty(this.buffered, 'length', { get: () => this.ranges.length });
  }
  get currentTime() {
    return this.time;
  }
  set currentTime(t: number) {
    this.time = Math.round(t * 1000) / 1000;
    this.seeking = true;
    this.seeks.push(this.time);
    this.dispatchEvent(new Event('seeking'));
  }
  finishSeek() {
    this.seeking = false;
    this.dispatchEvent(new Event('seeked'));
  }
}

let media: FakeMedia;
let rebuild: ReturnType<typeof vi.fn<() => void>>;
let stop: () => void;
beforeEach(() => {
  vi.useFakeTimers();
  media = new FakeMedia();
  rebuild = vi.fn<() => void>();
  stop = rescueStuckSeeks(media as unknown as HTMLMediaElement, { rebuild });
});
afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('rescueStuckSeeks', () => {
  it('leaves a seek that finishes in time alone', () => {
    media.currentTime = 0.18;
    vi.advanceTimersByTime(STUCK_SEEK_MS - 100);
    media.finishSeek();
    vi.advanceTimersByTime(10 * STUCK_SEEK_MS);
    expect(media.seeks).toEqual([0.18]);
    expect(rebuild).not.toHaveBeenCalled();
  });

  it('nudges a lost seek into buffered media, then rebuilds the pipeline if that is lost too', () => {
    media.currentTime = 0.18;
    vi.advanceTimersByTime(STUCK_SEEK_MS);
    expect(media.seeks).toEqual([0.18, 0.19]);
    expect(rebuild).not.toHaveBeenCalled();
    vi.advanceTimersByTime(STUCK_SEEK_MS);
    expect(rebuild).toHaveBeenCalledTimes(1);
    media.finishSeek();
    vi.advanceTimersByTime(10 * STUCK_SEEK_MS);
    expect(rebuild).toHaveBeenCalledTimes(1);
  });

  it('waits on a seek to where nothing is buffered yet: that is loading, not lost', () => {
    media.currentTime = 30;
    vi.advanceTimersByTime(5 * STUCK_SEEK_MS);
    expect(media.seeks).toEqual([30]);
    media.ranges.push([28, 40]);
    vi.advanceTimersByTime(STUCK_SEEK_MS);
    expect(media.seeks).toEqual([30, 30.01]);
  });

  it('gives up after four rescues', () => {
    media.currentTime = 0.18;
    vi.advanceTimersByTime(20 * STUCK_SEEK_MS);
    expect(media.seeks.length + rebuild.mock.calls.length).toBe(1 + 4);
  });

  it('stops with the player', () => {
    stop();
    media.currentTime = 0.18;
    vi.advanceTimersByTime(5 * STUCK_SEEK_MS);
    expect(media.seeks).toEqual([0.18]);
  });
});
