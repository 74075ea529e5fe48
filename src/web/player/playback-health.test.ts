import { describe, expect, it } from 'vitest';
import { HEALTH_REPORT_INTERVAL_MS } from '../../contract/playback-health';
import { PlaybackHealth } from './playback-health';

function setup() {
  let t = 1_000;
  const health = new PlaybackHealth(() => t);
  const video = document.createElement('video');
  health.watch(video);
  const at = (ms: number, event?: string) => {
    t = ms;
    if (event) video.dispatchEvent(new Event(event));
  };
  return { health, at };
}

describe('PlaybackHealth', () => {
  it('reports the startup once, then stalls and their length with the next save', () => {
    const { health, at } = setup();
    expect(health.take()).toBeUndefined(); // nothing happened yet
    at(2_000, 'play');
    at(2_000, 'waiting'); // loading before the first frame is startup, not a stall
    at(3_250, 'playing');
    expect(health.take()).toEqual({ startupMs: 1_250, stalls: 0, stallMs: 0, playedMs: 0 });
    at(10_000, 'waiting');
    at(12_500, 'playing');
    at(13_000, 'waiting');
    at(13_500, 'playing');
    at(20_000);
    expect(health.take()).toEqual({ stalls: 2, stallMs: 3_000, playedMs: 6_750 + 500 + 6_500 });
    expect(health.take()).toBeUndefined(); // played time alone waits for the interval
    at(20_000 + HEALTH_REPORT_INTERVAL_MS);
    expect(health.take()).toEqual({ stalls: 0, stallMs: 0, playedMs: HEALTH_REPORT_INTERVAL_MS });
  });

  it('reports played time when the player goes away, and an error at once', () => {
    const { health, at } = setup();
    let urgent = 0;
    health.urgent = () => urgent++;
    at(1_000, 'play');
    at(1_500, 'playing');
    health.take();
    at(4_500, 'pause');
    expect(health.take()).toBeUndefined();
    expect(health.take(true)).toEqual({ stalls: 0, stallMs: 0, playedMs: 3_000 });
    health.fail('frag load error <x>');
    expect(urgent).toBe(1);
    expect(health.take()).toEqual({ stalls: 0, stallMs: 0, playedMs: 0, error: 'frag-load-error--x-' });
  });

  it('takes back a report whose save failed', () => {
    const { health, at } = setup();
    at(1_000, 'play');
    at(1_400, 'playing');
    const report = health.take()!;
    health.giveBack(report);
    expect(health.take()).toEqual({ startupMs: 400, stalls: 0, stallMs: 0, playedMs: 0 });
  });
});
