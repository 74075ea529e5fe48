import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { CaptionTrack } from '../../contract/captions';
import { parseCaptions, plainCueText, type Cue } from '../../contract/webvtt';
import { call } from '../api/client';
import type { Rect } from './watermark';

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
    queryFn: ({ signal }) =>
      call('GET /api/videos/:videoId/captions', { params: { videoId }, signal }).then((r) => r.captions),
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
      const parsed = parseCaptions(await res.text());
      return parsed.ok ? parsed.cues : [];
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

/** Where a cue's `line:` and `align:` settings put it, where they are simple percentages or keywords. */
function placement(settings: string): { linePercent?: number; align: CanvasTextAlign } {
  const line = /(?:^|\s)line:(\d{1,3}(?:\.\d+)?)%/.exec(settings);
  const align = /(?:^|\s)align:(start|left|end|right|center|middle)/.exec(settings)?.[1];
  return {
    linePercent: line ? Math.min(100, Number(line[1])) : undefined,
    align:
      align === 'start' || align === 'left'
        ? 'left'
        : align === 'end' || align === 'right'
          ? 'right'
          : 'center',
  };
}

/**
 * Draws a cue over the picture in `rect`: white text on a dark box, sized from the picture's
 * height (`pixelRatio`: canvas pixels per CSS pixel), its bottom at least `reserveBottom` pixels above the canvas's bottom (the control bar).
 */
export function drawCue(
  ctx: CanvasRenderingContext2D,
  cue: Cue,
  rect: Rect,
  reserveBottom: number,
  pixelRatio = 1,
): void {
  if (rect.w <= 0 || rect.h <= 0) return;
  const lines = plainCueText(cue.text).split('\n');
  // Never below 18 CSS px, however small the player.
  const size = Math.max(18 * pixelRatio, rect.h * 0.05);
  const lineHeight = size * 1.3;
  const pad = size * 0.35;
  const { linePercent, align } = placement(cue.settings);
  ctx.save();
  ctx.font = `600 ${size}px system-ui, sans-serif`;
  ctx.textBaseline = 'middle';
  const blockHeight = lines.length * lineHeight;
  const lowest = Math.min(rect.y + rect.h, ctx.canvas.height - reserveBottom) - size * 0.6;
  const top =
    linePercent !== undefined
      ? Math.min(rect.y + (rect.h * linePercent) / 100, lowest - blockHeight)
      : lowest - blockHeight;
  const margin = rect.w * 0.05;
  lines.forEach((text, i) => {
    const width = Math.min(ctx.measureText(text).width, rect.w - 2 * margin);
    const x =
      align === 'left'
        ? rect.x + margin
        : align === 'right'
          ? rect.x + rect.w - margin - width
          : rect.x + (rect.w - width) / 2;
    const y = top + i * lineHeight;
    ctx.fillStyle = 'rgba(0, 0, 0, 0.78)';
    ctx.fillRect(x - pad, y, width + 2 * pad, lineHeight);
    ctx.fillStyle = '#fff';
    ctx.textAlign = 'left';
    ctx.fillText(text, x, y + lineHeight / 2, rect.w - 2 * margin);
  });
  ctx.restore();
}
