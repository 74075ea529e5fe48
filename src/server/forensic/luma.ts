import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { DETECT_FPS, DETECT_HEIGHT, DETECT_WIDTH, FRAME_BYTES } from './detector';

/**
 * The detector's view of a video: its luma at DETECT_WIDTH x DETECT_HEIGHT, DETECT_FPS frames a
 * second from t = 0, decoded by ffmpeg at low CPU priority. `input` is a file, or `-` with `stdin`
 * (an MPEG-TS stream assembled from segments). Rejects when ffmpeg finds no video. `onDecoded`
 * hears the seconds of video decoded so far as they come.
 */
export function decodeLuma(
  input: string,
  options: {
    stdin?: AsyncIterable<Buffer>;
    signal?: AbortSignal;
    inputArgs?: string[];
    onDecoded?: (seconds: number) => void;
  } = {},
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        ...(options.inputArgs ?? []),
        '-i',
        input,
        '-map',
        '0:v:0',
        '-vf',
        `fps=${DETECT_FPS}:start_time=0,scale=${DETECT_WIDTH}:${DETECT_HEIGHT}:flags=area,format=gray`,
        '-f',
        'rawvideo',
        '-',
      ],
      { stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] },
    );
    try {
      if (child.pid) setPriority(child.pid, 10);
    } catch {
      // Only politeness.
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let err = '';
    child.stdout!.on('data', (c: Buffer) => {
      chunks.push(c);
      bytes += c.length;
      options.onDecoded?.(Math.floor(bytes / FRAME_BYTES) / DETECT_FPS);
    });
    child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
    const kill = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', kill, { once: true });
    child.on('error', (e) => reject(new Error(`ffmpeg could not start: ${e.message}`)));
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', kill);
      if (code !== 0)
        return reject(
          new Error(`ffmpeg could not decode the video: ${err.trim().split('\n').pop() ?? code}`),
        );
      resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    if (options.stdin) {
      const stdin = child.stdin!;
      stdin.on('error', () => undefined); // ffmpeg gave up early: its exit code says why
      void (async () => {
        for await (const chunk of options.stdin!) {
          if (!stdin.write(chunk)) await new Promise((r) => stdin.once('drain', r));
        }
        stdin.end();
      })().catch(() => stdin.destroy());
    }
  });
}
