import { afterEach, describe, expect, it, vi } from 'vitest';
import { endStreamAfterSeeks } from './end-of-stream';

class FakeSourceBuffer extends EventTarget {
  updating = false;
}

class FakeMediaSource extends EventTarget {
  readyState: ReadonlyMediaSource = 'open';
  sourceBuffers = [new FakeSourceBuffer(), new FakeSourceBuffer()];
  ended: (EndOfStreamError | undefined)[] = [];
  endOfStream(error?: EndOfStreamError) {
    if (this.readyState !== 'open' || this.sourceBuffers.some((b) => b.updating))
      throw new DOMException('not now', 'InvalidStateError');
    this.ended.push(error);
    this.readyState = 'ended';
  }
}
type ReadonlyMediaSource = 'open' | 'ended' | 'closed';

function setUp() {
  const mediaSource = new FakeMediaSource();
  // Buffered from 0.08 s to 20.1 s, as the engine journeys' lecture after its four segments.
  const ranges: [number, number][] = [[0.08, 20.1]];
  const buffered = {
    get length() {
      return ranges.length;
    },
    start: (i: number) => ranges[i]![0],
    end: (i: number) => ranges[i]![1],
  };
  const media = Object.assign(new EventTarget(), { seeking: false, currentTime: 0, buffered });
  const restore = endStreamAfterSeeks(
    mediaSource as unknown as MediaSource,
    media as unknown as HTMLMediaElement,
  );
  return { mediaSource, media, restore };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('endStreamAfterSeeks', () => {
  it('ends the stream at once when no seek is pending', () => {
    const { mediaSource } = setUp();
    mediaSource.endOfStream();
    expect(mediaSource.ended).toEqual([undefined]);
    expect(mediaSource.readyState).toBe('ended');
  });

  it('holds the end back while the media seeks, and ends it once the seek is done', () => {
    const { mediaSource, media } = setUp();
    media.seeking = true;
    media.currentTime = 0.18;
    mediaSource.endOfStream();
    expect(mediaSource.readyState).toBe('open');
    media.seeking = false;
    media.dispatchEvent(new Event('seeked'));
    expect(mediaSource.ended).toEqual([undefined]);
  });

  it('waits for an append that began during the seek, then ends once', () => {
    const { mediaSource, media } = setUp();
    media.seeking = true;
    media.currentTime = 0.18;
    mediaSource.endOfStream();
    mediaSource.sourceBuffers[1]!.updating = true;
    media.seeking = false;
    media.dispatchEvent(new Event('seeked'));
    expect(mediaSource.readyState).toBe('open');
    mediaSource.sourceBuffers[1]!.updating = false;
    mediaSource.sourceBuffers[1]!.dispatchEvent(new Event('updateend'));
    media.dispatchEvent(new Event('seeked'));
    expect(mediaSource.ended).toEqual([undefined]);
  });

  it('leaves a stream that was ended or closed meanwhile alone', () => {
    const { mediaSource, media } = setUp();
    media.seeking = true;
    media.currentTime = 0.18;
    mediaSource.endOfStream();
    mediaSource.readyState = 'closed';
    media.seeking = false;
    expect(() => media.dispatchEvent(new Event('seeked'))).not.toThrow();
    expect(mediaSource.ended).toEqual([]);
  });

  it('ends at once during a seek near the end, which may need the end to complete', () => {
    const { mediaSource, media } = setUp();
    media.seeking = true;
    media.currentTime = 19.5;
    mediaSource.endOfStream();
    expect(mediaSource.ended).toEqual([undefined]);
  });

  it('ends anyway when the seek is not done within 4 s', () => {
    vi.useFakeTimers();
    const { mediaSource, media } = setUp();
    media.seeking = true;
    media.currentTime = 0.18;
    mediaSource.endOfStream();
    vi.advanceTimersByTime(3_900);
    expect(mediaSource.readyState).toBe('open');
    vi.advanceTimersByTime(200);
    expect(mediaSource.ended).toEqual([undefined]);
  });

  it('ends with an error at once, seeking or not', () => {
    const { mediaSource, media } = setUp();
    media.seeking = true;
    mediaSource.endOfStream('decode');
    expect(mediaSource.ended).toEqual(['decode']);
  });

  it('restores the MediaSource and forgets a held-back end', () => {
    const { mediaSource, media, restore } = setUp();
    media.seeking = true;
    media.currentTime = 0.18;
    mediaSource.endOfStream();
    restore();
    media.seeking = false;
    media.dispatchEvent(new Event('seeked'));
    expect(mediaSource.ended).toEqual([]);
    expect(Object.prototype.hasOwnProperty.call(mediaSource, 'endOfStream')).toBe(false);
  });
});
