import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { inputArgs, type MediaTools } from '../storage/ffmpeg';

/**
 * Text on screen (issue 29): frames at scene changes and at least every STEADY_SECONDS, read by
 * Tesseract with the layout kept (lines, and indentation rebuilt from the words' positions), so
 * code stays code.
 */

/** A steady screen is read again at least this often. */
export const STEADY_SECONDS = 10;
/**
 * ffmpeg's scene score above which a frame counts as a change. A changed line of code on a
 * 1280x720 editor scores about 0.01; encoder noise on a still screen stays under 0.001.
 */
const SCENE_THRESHOLD = 0.005;
/**
 * Frames are read at twice their size, up to this many lines (never smaller than the frame): an
 * editor's 16 px text on a 1280x720 screen has lower-case letters about 9 px high, below what
 * Tesseract reads well, and a light-on-dark theme lost whole words there (docs/SEARCH.md, Figures).
 * A 4K screen (HiDPI, its text drawn twice as large already) is read as it is.
 */
const READ_MAX_HEIGHT = 2160;
/**
 * What a selected frame goes through before Tesseract: upscaled (Lanczos) and made grey (the luma,
 * converted in the same pass). After `select`, so scene scores are taken on the decoded picture as
 * before and only the frames kept are converted. Light-on-dark frames are left as they are:
 * Tesseract inverts the lines it reads poorly itself (per line, so a dark panel on a light screen is
 * read too, which inverting whole frames by their brightness would not give), and inverting dark
 * frames here first measured no better on the bench's slides.
 */
export const READ_FILTER = `scale=w=-1:h='max(ih\\,min(2*ih\\,${READ_MAX_HEIGHT}))':flags=lanczos,format=gray`;
/** Words Tesseract is less sure of than this are dropped (specks, the cursor). */
const MIN_CONFIDENCE = 20;
const TESSERACT_TIMEOUT_MS = 120_000;

export interface Frame {
  /** Seconds from the start of the video. */
  t: number;
  file: string;
}

/**
 * The frames of `[from, from + seconds)` worth reading, as PNG files in `dir` (emptied first), with
 * their times: the first one, every scene change and one at least every STEADY_SECONDS; grey and
 * upscaled for Tesseract (READ_FILTER).
 */
export async function extractFrames(
  tools: MediaTools,
  input: { file: string; format?: string },
  from: number,
  seconds: number,
  dir: string,
  signal: AbortSignal,
): Promise<Frame[]> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const select = `select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,${STEADY_SECONDS})+gt(scene\\,${SCENE_THRESHOLD})'`;
  await tools.ffmpeg(
    [
      '-ss',
      String(from),
      '-t',
      String(seconds),
      ...inputArgs(input.file, input.format),
      '-an',
      '-sn',
      '-vf',
      `${select},${READ_FILTER}`,
      '-fps_mode',
      'passthrough',
      // File names are the frame's time in milliseconds from `from`.
      '-enc_time_base',
      '1:1000',
      '-frame_pts',
      '1',
      '-f',
      'image2',
      path.join(dir, '%012d.png'),
    ],
    { signal, lowPriority: true },
  );
  const names = (await readdir(dir)).filter((n) => n.endsWith('.png')).sort();
  return names.map((name) => ({ t: from + Number(name.slice(0, -4)) / 1000, file: path.join(dir, name) }));
}

export const hashFile = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

interface Word {
  block: number;
  par: number;
  line: number;
  left: number;
  top: number;
  width: number;
  height: number;
  text: string;
}

/**
 * Tesseract's TSV (words with their boxes) as text: one line per line it found, each word at its
 * column in character widths (estimated from the words' boxes) from the leftmost word, so a
 * monospaced editor's indentation and alignment come back (a filter's `-c preserve_interword_spaces`
 * alone keeps no leading indentation).
 */
export function layoutFromTsv(tsv: string): string {
  const words: Word[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const text = c.slice(11).join('\t').trim();
    if (!text || Number(c[10]) < MIN_CONFIDENCE) continue;
    words.push({
      block: Number(c[2]),
      par: Number(c[3]),
      line: Number(c[4]),
      left: Number(c[6]),
      top: Number(c[7]),
      width: Number(c[8]),
      height: Number(c[9]),
      text,
    });
  }
  if (!words.length) return '';
  // A word's ink spans about (n - 0.3) character cells (its first and last glyph are narrower than
  // their cells); the upper quartile over words of 3+ characters comes closest to the cell width.
  const long = words.filter((w) => [...w.text].length >= 3);
  const widths = (long.length ? long : words)
    .map((w) => w.width / Math.max(0.7, [...w.text].length - 0.3))
    .sort((a, b) => a - b);
  const charWidth = Math.max(1, widths[Math.floor(widths.length * 0.75)]!);
  const margin = Math.min(...words.map((w) => w.left));
  const lines = new Map<string, Word[]>();
  for (const w of words) {
    const key = `${w.block}.${w.par}.${w.line}`;
    lines.set(key, [...(lines.get(key) ?? []), w]);
  }
  const ordered = [...lines.values()]
    .map((ws) => ws.sort((a, b) => a.left - b.left))
    .sort((a, b) => Math.min(...a.map((w) => w.top)) - Math.min(...b.map((w) => w.top)));
  // Columns of a monospaced grid: ink starts a little inside its character cell, hence the 0.3.
  const columnOf = (left: number) => Math.max(0, Math.floor((left - margin) / charWidth + 0.3));
  return ordered
    .map((ws) => {
      let out = ' '.repeat(columnOf(ws[0]!.left));
      ws.forEach((w, i) => {
        if (i > 0) {
          const prev = ws[i - 1]!;
          const gap = (w.left - (prev.left + prev.width)) / charWidth;
          // Touching words (`(42)` `;`) join; others keep their column, or one space in proportional text.
          if (gap >= 0.3) out += ' '.repeat(Math.max(1, columnOf(w.left) - out.length));
        }
        out += w.text;
      });
      return out.trimEnd();
    })
    .join('\n');
}

/** Runs Tesseract on one image: page segmentation as one block (`--psm 6`), spaces kept. */
export function readImage(
  tesseractPath: string,
  file: string,
  langs: string,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      tesseractPath,
      [file, 'stdout', '-l', langs, '--psm', '6', '-c', 'preserve_interword_spaces=1', 'tsv'],
      {
        signal,
        timeout: TESSERACT_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `tesseract failed: ${String(stderr || error.message)
                .trim()
                .split('\n')
                .pop()}`,
            ),
          );
        else resolve(layoutFromTsv(stdout));
      },
    );
  });
}

/** Whether Tesseract runs here and knows every language of `langs`; the reason when not. */
export function checkTesseract(tesseractPath: string, langs: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(tesseractPath, ['--list-langs'], { signal, timeout: 5_000 }, (error, stdout, stderr) => {
      if (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(
          new Error(
            missing
              ? `Tesseract not found (${tesseractPath}): install tesseract-ocr, or SEARCH_OCR=off`
              : `${tesseractPath} --list-langs failed: ${error.message}`,
          ),
        );
        return;
      }
      const known = new Set(`${stdout}\n${stderr}`.split('\n').map((l) => l.trim()));
      const absent = langs.split('+').filter((l) => !known.has(l));
      if (absent.length)
        reject(
          new Error(`Tesseract has no data for OCR_LANGS ${absent.join(', ')} (tesseract-ocr-${absent[0]})`),
        );
      else resolve();
    });
  });
}
