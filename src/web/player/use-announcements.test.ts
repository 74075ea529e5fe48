import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Captions } from './captions';
import { captionLabel, useAnnouncements } from './use-announcements';

const captions = (language: string | null) =>
  ({ tracks: [{ language: 'en', label: 'English' }], language }) as unknown as Captions;

describe('useAnnouncements', () => {
  it('says nothing at first, then each change once: playing, muted, captions', () => {
    const { result, rerender } = renderHook(
      ({ playing, muted, shown }) => useAnnouncements(playing, muted, shown),
      { initialProps: { playing: false, muted: false, shown: captions(null) } },
    );
    expect(result.current).toBe('');
    rerender({ playing: true, muted: false, shown: captions(null) });
    expect(result.current).toBe('Playing');
    rerender({ playing: true, muted: true, shown: captions(null) });
    expect(result.current).toBe('Muted');
    rerender({ playing: true, muted: true, shown: captions('en') });
    expect(result.current).toBe('Captions on: English');
    rerender({ playing: true, muted: false, shown: captions('en') });
    expect(result.current).toBe('Sound on');
    rerender({ playing: false, muted: false, shown: captions(null) });
    expect(result.current).toBe('Paused'); // one change said at a time, playing first
  });

  it('names the track shown', () => {
    expect(captionLabel(captions('en'))).toBe('English');
    expect(captionLabel(captions(null))).toBeUndefined();
    expect(captionLabel(undefined)).toBeUndefined();
  });
});
