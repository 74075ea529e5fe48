import { describe, expect, it } from 'vitest';
import { LIVE_LATENCY, startPosition } from './engine';

describe('startPosition', () => {
  it('starts where asked while the length is unknown or leaves room to play', () => {
    expect(startPosition(42, 0)).toBe(42);
    expect(startPosition(42, NaN)).toBe(42);
    expect(startPosition(42, 60)).toBe(42);
    expect(startPosition(58.9, 60)).toBe(58.9);
  });

  it('starts a second before the end for a moment in the last second, so it is still shown', () => {
    expect(startPosition(59, 60)).toBe(59);
    expect(startPosition(59.5, 60)).toBe(59);
    expect(startPosition(60, 60)).toBe(59);
    expect(startPosition(0.5, 0.8)).toBe(0);
  });

  it('starts at the beginning for no start, or one past the end', () => {
    expect(startPosition(0, 60)).toBe(0);
    expect(startPosition(-3, 60)).toBe(0);
    expect(startPosition(75, 60)).toBe(0);
  });
});

describe('LIVE_LATENCY', () => {
  it('holds a live stream 1.5 segments behind its end, a config hls.js accepts', async () => {
    const { default: Hls } = await import('hls.js/light');
    const hls = new Hls({ ...LIVE_LATENCY });
    // hls.js's default: three target durations (12 s at the live playlists' target of 4 s).
    expect(hls.config.liveSyncDuration).toBe(3) // 1.5 live segments of 2 s (server/live/ingest.ts);
    // Infinite: a viewer who paused or seeked back through the class is never pulled to the edge.
    expect(hls.config.liveMaxLatencyDuration).toBeUndefined();
    expect(hls.config.liveMaxLatencyDurationCount).toBe(Infinity);
    expect(hls.config.maxLiveSyncPlaybackRate).toBe(1);
    hls.destroy();
  });
});
