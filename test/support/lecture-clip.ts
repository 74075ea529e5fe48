import { execFile } from 'node:child_process';
import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const MONO = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';

/**
 * A lecture-like H.264 clip made by ffmpeg (at nice 10): a flat light slide with a title that
 * changes every 30 s, three lines of code (one of them typing, a character a second), and a moving
 * "talking head" (mandelbrot) in the bottom-right corner, with a tone as audio. The flat slide is
 * the hard case for an invisible mark; the head is where most bits of a re-encode go. Made once per
 * machine and size (a two-minute clip is about 9 CPU-seconds of ffmpeg), then copied to `file`.
 */
export async function makeLectureClip(
  file: string,
  o: { seconds: number; width?: number; height?: number },
): Promise<string> {
  const width = o.width ?? 1280;
  const height = o.height ?? 720;
  const dir = path.join(tmpdir(), 'lectern-test-clips');
  const made = path.join(dir, `lecture-${width}x${height}-${o.seconds}s.mp4`);
  if (!(await stat(made).catch(() => null))) {
    await mkdir(dir, { recursive: true });
    const temp = `${made}.${process.pid}.tmp.mp4`;
    await encodeLecture(temp, { seconds: o.seconds, width, height });
    await rename(temp, made); // files made at once by two workers: the rename is atomic
  }
  await copyFile(made, file);
  return file;
}

async function encodeLecture(file: string, o: { seconds: number; width: number; height: number }) {
  const { width, height } = o;
  const s = height / 720;
  const px = (n: number) => Math.round(n * s);
  const text = (font: string, value: string, x: number, y: number, size: number, colour: string) =>
    `drawtext=fontfile=${font}:text='${value}':x=${px(x)}:y=${px(y)}:fontsize=${px(size)}:fontcolor=${colour}`;
  const slide = [
    text(SANS, 'Lecture %{eif\\:floor(t/30)+1\\:d}\\: closures and scope', 60, 50, 44, '0x202020'),
    text(MONO, 'function counter() { // step %{eif\\:t\\:d}', 60, 160, 28, '0x303080'),
    text(MONO, '  let n = 0; return () => ++n;', 60, 200, 28, '0x303080'),
    text(MONO, '}', 60, 240, 28, '0x303080'),
  ].join(',');
  await run('nice', [
    '-n', '10', 'ffmpeg', '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `color=c=0xf4f4f4:s=${width}x${height}:r=25:d=${o.seconds}`,
    '-f', 'lavfi', '-i', `mandelbrot=s=${px(320)}x${px(240)}:r=25`,
    '-f', 'lavfi', '-i', `sine=f=220:d=${o.seconds}`,
    '-filter_complex', `[0:v]${slide}[s];[1:v]hue=s=0.4[h];[s][h]overlay=x=${px(920)}:y=${px(440)}:shortest=1`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '64k', '-t', String(o.seconds), file,
  ]); // prettier-ignore
}
