import { describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../storage/ffmpeg';
import { describeStreams, frameRateAttribute } from './codecs';

const probe = (
  video: Partial<NonNullable<ProbeResult['video']>>,
  audio?: [string, string?],
): ProbeResult => ({
  formatName: 'mpegts',
  durationSeconds: 6,
  video: {
    codec: 'h264',
    width: 1280,
    height: 720,
    pixelFormat: 'yuv420p',
    profile: 'High',
    level: 31,
    frameRate: 30,
    ...video,
  },
  audioCodec: audio?.[0],
  audioProfile: audio?.[1],
});

describe('CODECS and FRAME-RATE of a packaged rendition', () => {
  it('writes avc1.PPCCLL from the profile and level, and mp4a.40.N from the AAC profile', () => {
    expect(describeStreams(probe({}, ['aac', 'LC']))).toEqual({
      codecs: 'avc1.64001f,mp4a.40.2',
      frameRate: 30,
    });
    expect(describeStreams(probe({ profile: 'Main', level: 40 }, ['aac', 'HE-AAC'])).codecs).toBe(
      'avc1.4d4028,mp4a.40.5',
    );
    expect(describeStreams(probe({ profile: 'Constrained Baseline', level: 12 }, ['aac'])).codecs).toBe(
      'avc1.42c00c,mp4a.40.2',
    );
    expect(describeStreams(probe({ profile: 'High 10', level: 51 }, ['aac', 'HE-AACv2'])).codecs).toBe(
      'avc1.6e0033,mp4a.40.29',
    );
  });

  it('lists the video alone when there is no audio', () => {
    expect(describeStreams(probe({ profile: 'Main', level: 30 }))).toEqual({
      codecs: 'avc1.4d401e',
      frameRate: 30,
    });
  });

  it('leaves CODECS out rather than list part of the codecs', () => {
    expect(describeStreams(probe({}, ['opus'])).codecs).toBeUndefined();
    expect(describeStreams(probe({ profile: 'Some Future Profile' }, ['aac'])).codecs).toBeUndefined();
    expect(describeStreams(probe({ codec: 'hevc' }, ['aac'])).codecs).toBeUndefined();
    expect(describeStreams(probe({ level: undefined }, ['aac'])).codecs).toBeUndefined();
  });

  it('keeps the frame rate when known, three decimals in the playlist', () => {
    expect(describeStreams(probe({ frameRate: 30000 / 1001 })).frameRate).toBeCloseTo(29.97, 2);
    expect(frameRateAttribute(30000 / 1001)).toBe('29.970');
    expect(frameRateAttribute(25)).toBe('25.000');
    expect(describeStreams(probe({ frameRate: undefined }))).toEqual({ codecs: 'avc1.64001f' });
  });
});
