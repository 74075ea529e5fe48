import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaTools, inputArgs } from '../storage/ffmpeg';
import { extractFrames, hashFile, layoutFromTsv } from './ocr';

const HEADER =
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

/** Tesseract's TSV for words given as [line, left, top, width, height, conf, text], boxes times `k`. */
function tsv(words: [number, number, number, number, number, number, string][], k = 1): string {
  const rows = words.map(([line, left, top, width, height, conf, text], i) =>
    [5, 1, 1, 1, line, i + 1, left * k, top * k, width * k, height * k, conf, text].join('\t'),
  );
  return [HEADER, ...rows].join('\n');
}

// A monospaced editor with 10 px cells: `if (x) {` / `··return 1;` / `}`.
const CODE: [number, number, number, number, number, number, string][] = [
  [1, 61, 60, 16, 14, 96, 'if'],
  [1, 91, 60, 27, 14, 95, '(x)'],
  [1, 131, 60, 6, 14, 93, '{'],
  [2, 81, 80, 57, 14, 96, 'return'],
  [2, 151, 80, 17, 14, 94, '1;'],
  [2, 300, 80, 4, 14, 12, '|'],
  [3, 61, 100, 6, 14, 91, '}'],
];

describe('layoutFromTsv', () => {
  it('keeps indentation in character widths and drops unsure words (the cursor)', () => {
    expect(layoutFromTsv(tsv(CODE))).toBe('if (x) {\n  return 1;\n}');
  });

  it('gives the same text from a frame read at twice its size (boxes scaled)', () => {
    expect(layoutFromTsv(tsv(CODE, 2))).toBe(layoutFromTsv(tsv(CODE)));
  });
});

describe('extractFrames', () => {
  const tools = createMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
  const signal = new AbortController().signal;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ocr-frames-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A PNG's width, height and colour type (0: grey) from its IHDR. */
  const pngInfo = async (file: string) => {
    const b = await readFile(file);
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), colourType: b[25] };
  };

  /** A still screen as a screen recorder writes it (H.264 in MP4), `seconds` long. */
  const video = async (size: string, seconds: number) => {
    const file = path.join(dir, `${size}-${seconds}.mp4`);
    await tools.ffmpeg([
      ...inputArgs(`color=c=0x1e1e1e:s=${size}:r=5:d=${seconds}`, 'lavfi'),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file,
    ]); // prettier-ignore
    return { file };
  };

  it('gives grey frames at twice the size, at their times, identical frames byte for byte', async () => {
    const frames = await extractFrames(tools, await video('320x180', 12), 0, 12, path.join(dir, 'f'), signal);
    expect(frames.map((f) => f.t)).toEqual([0, 10]);
    expect(await pngInfo(frames[0]!.file)).toEqual({ width: 640, height: 360, colourType: 0 });
    expect(await hashFile(frames[1]!.file)).toBe(await hashFile(frames[0]!.file));
  });

  it('upscales to at most 2160 lines and never shrinks a larger frame', async () => {
    const sizeOf = async (size: string) => {
      const [frame] = await extractFrames(tools, await video(size, 1), 0, 1, path.join(dir, size), signal);
      const { width, height } = await pngInfo(frame!.file);
      return `${width}x${height}`;
    };
    expect(await sizeOf('1920x1200')).toBe('3456x2160');
    expect(await sizeOf('3840x2160')).toBe('3840x2160');
  });
});
