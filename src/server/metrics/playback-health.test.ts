import { describe, expect, it } from 'vitest';
import { browserFamily, clampReport } from './playback-health';

describe('browserFamily', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'chrome',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'chrome',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'edge',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'firefox'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'safari',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
      'safari',
    ],
    ['curl/8.5.0', 'other'],
    [undefined, 'other'],
  ])('%s is %s', (ua, family) => expect(browserFamily(ua)).toBe(family));
});

describe('clampReport', () => {
  it('keeps honest figures and clamps absurd ones to the limits', () => {
    expect(clampReport({ startupMs: 812.4, stalls: 2, stallMs: 1500, playedMs: 9000 })).toEqual({
      startupMs: 812,
      stalls: 2,
      stallMs: 1500,
      playedMs: 9000,
      error: undefined,
    });
    expect(clampReport({ startupMs: 1e12, stalls: 1e9, stallMs: 1e12, playedMs: 1e12, error: 'x' })).toEqual({
      startupMs: 60_000,
      stalls: 100,
      stallMs: 900_000,
      playedMs: 900_000,
      error: 'x',
    });
  });
});
