import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The text Debian's tesseract (eng) reads in a picture file after the ffmpeg filter chain `filter`
 * (enlarge, gray, ...: as one would prepare a leaked screenshot), as sparse text anywhere on it;
 * with `only`, in those characters alone (a session code has no O, I or L to take a 6 or 1 for).
 */
export async function readText(file: string, filter: string, only?: string): Promise<string> {
  const prepared = `${file}.ocr.png`;
  try {
    await run('ffmpeg', ['-v', 'error', '-y', '-i', file, '-vf', filter, prepared]);
    const whitelist = only ? ['-c', `tessedit_char_whitelist=${only}`] : [];
    return (await run('tesseract', [prepared, 'stdout', '--psm', '11', ...whitelist])).stdout;
  } finally {
    await rm(prepared, { force: true });
  }
}

/**
 * A filter keeping only the pixels of a gray picture lighter than `above`, black on white: light text
 * on a dark plate (a caption, the session code), without the picture behind it.
 */
export const lightTextOnly = (above: number) => `lutyuv=y='if(gt(val,${above}),0,255)'`;
