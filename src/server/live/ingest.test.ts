import { describe, expect, it } from 'vitest';
import { livePlaylist, publishedOf, segmentsOf } from './ingest';

const at = (s: number) => new Date(Date.UTC(2026, 2, 2, 8, 0, s));

describe('live playlists', () => {
  const published = [0, 1, 2, 3].map((i) => ({
    file: `seg_0000${i}.ts`,
    duration: 2,
    start: i * 2,
    programDate: at(i * 2 + (i >= 2 ? 10 : 0)),
    discontinuity: i === 2,
  }));

  it('writes a growing EVENT playlist with keys per period, our program date times and the reconnect', () => {
    const text = livePlaylist(published, false, 4);
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-PLAYLIST-TYPE:EVENT',
        '#EXT-X-KEY:METHOD=AES-128,URI="key:0"',
        '#EXT-X-PROGRAM-DATE-TIME:2026-03-02T08:00:00.000Z',
        '#EXTINF:2.000,',
        'seg_00000.ts',
        '#EXT-X-PROGRAM-DATE-TIME:2026-03-02T08:00:02.000Z',
        '#EXTINF:2.000,',
        'seg_00001.ts',
        '#EXT-X-DISCONTINUITY',
        '#EXT-X-KEY:METHOD=AES-128,URI="key:1"',
        '#EXT-X-PROGRAM-DATE-TIME:2026-03-02T08:00:14.000Z',
        '#EXTINF:2.000,',
        'seg_00002.ts',
        '#EXT-X-PROGRAM-DATE-TIME:2026-03-02T08:00:16.000Z',
        '#EXTINF:2.000,',
        'seg_00003.ts',
        '',
      ].join('\n'),
    );
    expect(livePlaylist(published, true, 4).endsWith('seg_00003.ts\n#EXT-X-ENDLIST\n')).toBe(true);
  });

  it('keeps the target duration at the segment length, rounded up only past a longer segment', () => {
    const target = (durations: number[]) =>
      /#EXT-X-TARGETDURATION:(\d+)/.exec(
        livePlaylist(
          durations.map((duration, i) => ({ ...published[0]!, file: `seg_${i}.ts`, duration })),
          false,
          4,
        ),
      )![1];
    expect(target([2, 2.2, 1.8, 2.4])).toBe('2');
    expect(target([2, 2.6])).toBe('3');
  });

  it('reads its own playlist back (a node taking over a class mid-way) and ffmpeg’s', () => {
    expect(publishedOf(livePlaylist(published, false, 4))).toEqual(published);
    expect(segmentsOf('#EXTM3U\n#EXTINF:2.000000,\ns_00000.ts\n#EXTINF:1.5,\ns_00001.ts\n')).toEqual([
      { file: 's_00000.ts', duration: 2 },
      { file: 's_00001.ts', duration: 1.5 },
    ]);
  });
});
