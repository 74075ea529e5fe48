/**
 * Caption files: SubRip (.srt) and WebVTT checked line by line for upload, and read into cues with
 * the W3C's own WebVTT parser (`webvtt-parser`, the spec's algorithm, which agrees with browsers on
 * the web-platform-tests cases: webvtt.wpt.test.ts). Pure, so the server validates uploads with it
 * and the player reads the stored files with the same code.
 */
import entityTable from 'webvtt-parser/html-entities.json' with { type: 'json' };
// A CommonJS package: Node's ESM loader gives it whole, as the default export.
import webvttParser, {
  type Cue as ParsedCue,
  type TreeNode,
  type TreeNodeObjectTagNameWithRt,
} from 'webvtt-parser';
import { DEFAULT_CUE_SETTINGS, vttTime, type Cue, type CueSettings } from './cues';

const { WebVTTCueTextParser, WebVTTParser } = webvttParser;

export { cueAt, vttTime, type Cue, type CueSettings } from './cues';

/** Largest caption file accepted (a two-hour lecture's captions are about 150 KB). */
export const MAX_CAPTION_BYTES = 512 * 1024;

export type CaptionParse = { ok: true; cues: Cue[] } | { ok: false; line: number; message: string };

/** Every HTML character reference (`&eacute;`, `&#233;` are the parser's own), not the six it knows by default. */
const entities = entityTable as Record<`&${string}`, string>;

// Authoring checks, stricter than a browser on purpose (a browser silently drops a malformed cue;
// an admin wants to know): hh:mm:ss.mmm or mm:ss.mmm; SubRip writes a comma before the milliseconds.
const TIME = String.raw`(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)[.,](\d{3})`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}(?:\s+(.*))?$`);
const SRT_INDEX = /^\s*\d+\s*$/;

const seconds = (h: string | undefined, m: string, s: string, ms: string) =>
  Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;

const fail = (line: number, message: string): CaptionParse => ({
  ok: false,
  line,
  message: `Line ${line}: ${message}`,
});

/** The text a cue shows: the text nodes of the spec's cue text tree (entities decoded, markup gone). */
function treeText(nodes: readonly TreeNode<TreeNodeObjectTagNameWithRt>[]): string {
  return nodes
    .map((node) =>
      node.type === 'text' ? node.value : node.type === 'object' ? treeText(node.children) : '',
    )
    .join('');
}

const NUMERIC_REFERENCE = /&#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}));?/g;
/** Stands for the n-th numeric reference while the cue text parser runs (a private-use character). */
const HOLD = 0xf0000;

/**
 * A cue's text without markup and with every character reference decoded (named ones by the
 * parser with the full HTML table; numeric ones, `&#233;` `&#x263A;`, which the parser leaves as
 * they are, held aside meanwhile so `&#60;` never turns into markup), for drawing and the transcript.
 */
export function plainCueText(text: string): string {
  const held: string[] = [];
  const holding = text.replace(
    NUMERIC_REFERENCE,
    (_, hex: string | undefined, decimal: string | undefined) => {
      const code = hex ? parseInt(hex, 16) : Number(decimal);
      held.push(
        code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
          ? String.fromCodePoint(code)
          : '\uFFFD',
      );
      return String.fromCodePoint(HOLD + held.length - 1);
    },
  );
  const tree = new WebVTTCueTextParser(holding, () => {}, 'subtitles', entities).parse(0, 0);
  return treeText(tree.children).replace(
    /[\u{f0000}-\u{fffff}]/gu,
    (c) => held[c.codePointAt(0)! - HOLD] ?? c,
  );
}

function settingsOf(cue: ParsedCue): CueSettings {
  return {
    vertical: cue.direction === 'horizontal' ? '' : cue.direction,
    line: cue.linePosition,
    snapToLines: cue.snapToLines,
    lineAlign: cue.lineAlign,
    position: cue.textPosition,
    positionAlign: cue.positionAlign,
    size: cue.size,
    align: cue.alignment,
  };
}

/** What a browser's <track> makes of a WebVTT file: its cues, or null when it refuses the file (no signature). */
export function readWebVtt(input: string): Cue[] | null {
  const parsed = new WebVTTParser(entities).parse(input, 'subtitles');
  if (parsed.errors.some((e) => e.message.startsWith('No valid signature'))) return null;
  return parsed.cues.map((cue) => ({
    id: cue.id,
    start: cue.startTime,
    end: cue.endTime,
    text: cue.text,
    plain: plainCueText(cue.text),
    settings: settingsOf(cue),
  }));
}

/**
 * SubRip as WebVTT, line for line after the two header lines (so a line number found in the result,
 * less two, is the SubRip file's): the counter goes, the comma becomes a dot, and SubRip's
 * positioning codes ({\an8}), which mean nothing in WebVTT, go.
 */
function srtAsWebVtt(lines: string[]): string {
  const body = lines.map((line, i) =>
    TIMING.test(line)
      ? line.replace(/(\d),(\d{3})/g, '$1.$2')
      : SRT_INDEX.test(line) && TIMING.test(lines[i + 1] ?? '')
        ? '' // the counter means nothing once stored
        : line.replace(/\{\\[^}]*\}/g, ''),
  );
  return ['WEBVTT', '', ...body].join('\n');
}

/**
 * Reads an SRT or WebVTT upload. The first problem is reported with its 1-based line number: a
 * header a browser refuses, a block without a well-formed timing, a cue ending before it starts or
 * with no text, a missing blank line, and a cue that ends after `durationSeconds` (when given).
 * The cues themselves (ids, settings, text) come from the W3C parser.
 */
export function parseCaptions(input: string, durationSeconds?: number): CaptionParse {
  const lines = input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const isVtt = /^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '');
  if (!isVtt && lines[0]?.startsWith('WEBVTT')) return fail(1, 'the header must be "WEBVTT"');
  let count = 0;
  let i = isVtt ? 1 : 0;
  // The WebVTT header block runs to the first blank line (or, as browsers read it, a timing line).
  if (isVtt) while (i < lines.length && lines[i]!.trim() !== '' && !lines[i]!.includes('-->')) i++;

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
    const [, h1, m1, s1, ms1, h2, m2, s2, ms2] = match;
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
    let textLines = 0;
    while (i < lines.length && lines[i]!.trim() !== '') {
      if (lines[i]!.includes('-->')) return fail(i + 1, 'a blank line must come before the next cue');
      textLines++;
      i++;
    }
    if (!textLines) return fail(blockStart + 1, 'the cue has no text');
    count++;
  }
  if (!count) return fail(Math.max(lines.length, 1), 'the file has no cues');
  const cues = readWebVtt(isVtt ? lines.join('\n') : srtAsWebVtt(lines));
  // Unreachable for a file that passed the checks above; said plainly rather than stored half-read.
  if (!cues || cues.length !== count) return fail(1, 'the file could not be read as WebVTT');
  return { ok: true, cues };
}

/** `line:`, `position:`, `size:`, `align:` and `vertical:` as written in a timing line, defaults left out. */
export function settingsText(settings: CueSettings): string {
  const parts: string[] = [];
  const d = DEFAULT_CUE_SETTINGS;
  if (settings.vertical) parts.push(`vertical:${settings.vertical}`);
  if (settings.line !== 'auto') {
    const align = settings.lineAlign !== d.lineAlign ? `,${settings.lineAlign}` : '';
    parts.push(`line:${settings.line}${settings.snapToLines ? '' : '%'}${align}`);
  }
  if (settings.position !== 'auto') {
    const align = settings.positionAlign !== d.positionAlign ? `,${settings.positionAlign}` : '';
    parts.push(`position:${settings.position}%${align}`);
  }
  if (settings.size !== d.size) parts.push(`size:${settings.size}%`);
  if (settings.align !== d.align) parts.push(`align:${settings.align}`);
  return parts.join(' ');
}

/**
 * A cue of plain text (heard or typed: no markup) as WebVTT writes it: `&`, `<` and `>` as
 * character references, blank lines (which would end the cue) and `-->` (which would read as a
 * timing) taken out.
 */
export function plainTextCue(start: number, end: number, plain: string): Cue {
  const lines = plain
    .replaceAll('-->', '->')
    .split(/\r\n|\r|\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const text = lines.join('\n').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return { id: '', start, end, text, plain: lines.join('\n'), settings: { ...DEFAULT_CUE_SETTINGS } };
}

/** The cues as a WebVTT file (ids and settings kept). */
export function toWebVtt(cues: readonly Cue[]): string {
  const blocks = cues.map((cue) => {
    const settings = settingsText(cue.settings);
    // An id that the parser would read as something else (a timing, a NOTE) is left out.
    const id =
      cue.id && !cue.id.includes('-->') && !/^(NOTE|STYLE|REGION)(\s|$)/.test(cue.id) ? `${cue.id}\n` : '';
    return `${id}${vttTime(cue.start)} --> ${vttTime(cue.end)}${settings ? ` ${settings}` : ''}\n${cue.text}`;
  });
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}
