/**
 * Caption cues as the player draws them: light (no parser here), so the player's first chunk
 * carries only this; the parser (`webvtt.ts`) loads with the caption file.
 */

/** A cue's WebVTT settings, as the spec's VTTCue exposes them (https://w3c.github.io/webvtt/#vttcue). */
export interface CueSettings {
  /** '' horizontal; 'rl' or 'lr' vertical (drawn horizontally here). */
  vertical: '' | 'rl' | 'lr';
  /** A line number (snapToLines) or a percentage of the picture's height; 'auto' is the bottom. */
  line: number | 'auto';
  snapToLines: boolean;
  lineAlign: 'start' | 'center' | 'end';
  /** Percentage of the picture's width; 'auto' follows `align`. */
  position: number | 'auto';
  positionAlign: 'auto' | 'line-left' | 'center' | 'line-right';
  /** The cue box's width, in percent of the picture's. */
  size: number;
  align: 'start' | 'center' | 'end' | 'left' | 'right';
}

export const DEFAULT_CUE_SETTINGS: Readonly<CueSettings> = {
  vertical: '',
  line: 'auto',
  snapToLines: true,
  lineAlign: 'start',
  position: 'auto',
  positionAlign: 'auto',
  size: 100,
  align: 'center',
};

export interface Cue {
  /** The cue identifier ('' when none). */
  id: string;
  /** Seconds from the start of the video. */
  start: number;
  end: number;
  /** The cue's lines, joined by "\n", markup and character references as written (`<i>`, `&amp;`). */
  text: string;
  /** The text as shown: markup dropped, every HTML character reference decoded. */
  plain: string;
  settings: CueSettings;
}

/** `hh:mm:ss.mmm`, as WebVTT writes it. */
export function vttTime(totalSeconds: number): string {
  const ms = Math.round(totalSeconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** The cue showing at `time`, if any (the last one that started, for overlapping cues). */
export function cueAt(cues: readonly Cue[], time: number): Cue | undefined {
  for (let i = cues.length - 1; i >= 0; i--) {
    const cue = cues[i]!;
    if (cue.start <= time && time < cue.end) return cue;
  }
  return undefined;
}
