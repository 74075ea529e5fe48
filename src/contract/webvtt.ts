/**
 * Caption files: SubRip (.srt) and WebVTT read into cues, checked line by line, and written back as
 * WebVTT. Pure, so the server validates uploads with it and the player reads the stored files with
 * the same code.
 */

/** Largest caption file accepted (a two-hour lecture's captions are about 150 KB). */
export const MAX_CAPTION_BYTES = 512 * 1024;

export interface Cue {
  /** Seconds from the start of the video. */
  start: number;
  end: number;
  /** The cue's lines, joined by "\n", markup included (`<i>`, `<v Name>`). */
  text: string;
  /** WebVTT cue settings (`line:10% align:start`), '' when none. */
  settings: string;
}

export type CaptionParse = { ok: true; cues: Cue[] } | { ok: false; line: number; message: string };

// hh:mm:ss.mmm or mm:ss.mmm; SubRip writes a comma before the milliseconds.
const TIME = String.raw`(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)[.,](\d{3})`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}(?:\s+(.*))?$`);
const SRT_INDEX = /^\s*\d+\s*$/;

const seconds = (h: string | undefined, m: string, s: string, ms: string) =>
  Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;

/** `hh:mm:ss.mmm`, as WebVTT writes it. */
export function vttTime(totalSeconds: number): string {
  const ms = Math.round(totalSeconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

const fail = (line: number, message: string): CaptionParse => ({
  ok: false,
  line,
  message: `Line ${line}: ${message}`,
});

/**
 * Reads an SRT or WebVTT file. The first problem is reported with its 1-based line number; a cue
 * that ends after `durationSeconds` (when given) is one.
 */
export function parseCaptions(input: string, durationSeconds?: number): CaptionParse {
  const lines = input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const isVtt = /^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '');
  if (!isVtt && lines[0]?.startsWith('WEBVTT')) return fail(1, 'the header must be "WEBVTT"');
  const cues: Cue[] = [];
  let i = isVtt ? 1 : 0;
  // The WebVTT header block runs to the first blank line.
  if (isVtt) while (i < lines.length && lines[i]!.trim() !== '') i++;

  while (i < lines.length) {
    if (lines[i]!.trim() === '') {
      i++;
      continue;
    }
    const blockStart = i;
    // NOTE, STYLE and REGION blocks carry no cue.
    if (isVtt && /^(NOTE|STYLE|REGION)(\s|$)/.test(lines[i]!)) {
      while (i < lines.length && lines[i]!.trim() !== '') i++;
      continue;
    }
    // An identifier line (SRT's counter, an optional WebVTT cue id) before the timing.
    let timingLine = i;
    if (!lines[i]!.includes('-->')) {
      if (!isVtt && !SRT_INDEX.test(lines[i]!)) return fail(i + 1, 'expected a cue number');
      timingLine = i + 1;
    }
    const match = TIMING.exec(lines[timingLine] ?? '');
    if (!match) {
      return fail(timingLine + 1, 'expected a cue timing like "00:00:01.000 --> 00:00:04.000"');
    }
    const [, h1, m1, s1, ms1, h2, m2, s2, ms2, settings] = match;
    const start = seconds(h1, m1!, s1!, ms1!);
    const end = seconds(h2, m2!, s2!, ms2!);
    if (end <= start) return fail(timingLine + 1, 'the cue must end after it starts');
    if (durationSeconds !== undefined && durationSeconds > 0 && end > durationSeconds + 0.5) {
      return fail(
        timingLine + 1,
        `the cue ends at ${vttTime(end)}, after the video ends (${vttTime(durationSeconds)})`,
      );
    }
    i = timingLine + 1;
    const text: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') {
      if (lines[i]!.includes('-->')) return fail(i + 1, 'a blank line must come before the next cue');
      text.push(lines[i]!);
      i++;
    }
    if (!text.length) return fail(blockStart + 1, 'the cue has no text');
    // SubRip's positioning codes ({\an8}) mean nothing in WebVTT.
    const body = text.join('\n').replace(/\{\\[^}]*\}/g, '');
    cues.push({ start, end, text: body, settings: isVtt ? (settings ?? '').trim() : '' });
  }
  if (!cues.length) return fail(Math.max(lines.length, 1), 'the file has no cues');
  return { ok: true, cues };
}

/** The cues as a WebVTT file. */
export function toWebVtt(cues: readonly Cue[]): string {
  const blocks = cues.map((cue) => {
    const settings = cue.settings ? ` ${cue.settings}` : '';
    return `${vttTime(cue.start)} --> ${vttTime(cue.end)}${settings}\n${cue.text}`;
  });
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}

/** A cue's text without markup, for drawing and for the transcript. */
export function plainCueText(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}

/** The cue showing at `time`, if any (the last one that started, for overlapping cues). */
export function cueAt(cues: readonly Cue[], time: number): Cue | undefined {
  for (let i = cues.length - 1; i >= 0; i--) {
    const cue = cues[i]!;
    if (cue.start <= time && time < cue.end) return cue;
  }
  return undefined;
}
