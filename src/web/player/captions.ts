import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { CaptionTrack } from '../../contract/captions';
import type { Cue } from '../../contract/cues';
import { calling } from '../api/client';

/** What the player and the transcript share about a video's captions. */
export interface Captions {
  tracks: CaptionTrack[];
  /** The language shown, or null for captions off. */
  language: string | null;
  /** The cues drawn: those of `language`, none while captions are off. */
  cues: Cue[];
  /** The transcript's cues: the language shown, or the first track's while captions are off. */
  transcript: Cue[];
  transcriptLabel: string | null;
  choose(language: string | null): void;
  /** C: off, or back on in the last language (the first track if none yet). */
  toggle(): void;
}

const OFF = 'off';
const storageKey = (viewer: string) => `lectern:captions:${viewer}`;

function remembered(viewer: string): string | null {
  try {
    return localStorage.getItem(storageKey(viewer));
  } catch {
    return null; // storage blocked: captions start off
  }
}

function remember(viewer: string, language: string | null) {
  try {
    localStorage.setItem(storageKey(viewer), language ?? OFF);
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}

/** Captions of `videoId`; the choice (a language or off) is remembered per viewer in this browser. */
export function useCaptions(videoId: string, viewer: string): Captions {
  const list = useQuery({
    queryKey: ['captions', videoId],
    queryFn: calling('GET /api/videos/:videoId/captions', { params: { videoId } }, (r) => r.captions),
    retry: false,
    staleTime: 5 * 60_000,
  });
  const tracks = useMemo(() => list.data ?? [], [list.data]);
  const [picked, setPicked] = useState<string | null | undefined>(undefined);
  const [last, setLast] = useState<string | null>(null);
  // Until the viewer picks here, the remembered choice (if this video has that language).
  const stored = picked === undefined ? remembered(viewer) : picked;
  const language = stored && stored !== OFF && tracks.some((t) => t.language === stored) ? stored : null;

  const transcriptTrack = tracks.find((t) => t.language === language) ?? tracks[0];
  const file = useQuery({
    queryKey: ['captions', videoId, transcriptTrack?.language],
    enabled: transcriptTrack !== undefined,
    retry: false,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const url = `/api/videos/${encodeURIComponent(videoId)}/captions/${encodeURIComponent(transcriptTrack!.language)}`;
      const res = await fetch(url, { credentials: 'same-origin', signal });
      if (!res.ok) throw new Error(`captions ${res.status}`);
      const text = await res.text();
      // The parser (and its entity table) loads with the first caption file, not with the player.
      const { readWebVtt } = await import('../../contract/webvtt');
      return readWebVtt(text) ?? [];
    },
  });

  const choose = useCallback(
    (next: string | null) => {
      setPicked(next ?? OFF);
      if (next) setLast(next);
      remember(viewer, next);
    },
    [viewer],
  );
  const toggle = useCallback(() => {
    if (language) choose(null);
    else choose(last ?? tracks[0]?.language ?? null);
  }, [language, last, tracks, choose]);

  const transcript = file.data ?? [];
  return {
    tracks,
    language,
    cues: language ? transcript : [],
    transcript,
    transcriptLabel: transcriptTrack?.label ?? null,
    choose,
    toggle,
  };
}
