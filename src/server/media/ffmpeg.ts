import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

export interface ProbedVideo {
  codec: string;
  width: number;
  height: number;
  pixelFormat: string;
  /** ffprobe's H.264 profile name (`High`, `Main`, `Constrained Baseline`…), when it knows one. */
  profile: string | undefined;
  /** level_idc (31 = level 3.1). */
  level: number | undefined;
  /** Average frames per second (avg_frame_rate, else r_frame_rate). */
  frameRate: number | undefined;
}

export interface ProbeResult {
  /** ffprobe's format_name, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`. */
  formatName: string;
  durationSeconds: number;
  video: ProbedVideo | undefined;
  audioCodec: string | undefined;
  /** The AAC profile (`LC`, `HE-AAC`…). */
  audioProfile: string | undefined;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Runs the process at low CPU priority (19 = lowest), so it only uses otherwise idle cores. */
  lowPriority?: boolean;
}

/** ffmpeg and ffprobe behind a small interface, so the services never build processes themselves. */
export interface MediaTools {
  /** What ffprobe sees in `file`; undefined when ffprobe cannot read it at all. */
  probe(file: string, signal?: AbortSignal): Promise<ProbeResult | undefined>;
  /** Runs ffmpeg with `args`; rejects with the tail of its error output. */
  ffmpeg(args: string[], options?: RunOptions): Promise<void>;
}

export class FfmpegError extends Error {}

/** Presigned URLs are credentials for a while: their query never reaches an error message or a log. */
export const redactUrls = (text: string) => text.replace(/(https?:\/\/[^\s?]+)\?\S*/g, '$1?…');

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  profile?: string;
  level?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  disposition?: { attached_pic?: number };
}

/** ffprobe's `30000/1001` as a number; undefined for `0/0` and other nonsense. */
function parseRate(rate: string | undefined): number | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(rate ?? '');
  if (!m || Number(m[2]) === 0 || Number(m[1]) === 0) return undefined;
  return Number(m[1]) / Number(m[2]);
}

function run(
  command: string,
  args: string[],
  options: RunOptions & { timeoutMs?: number; captureStdout?: boolean } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const child = spawn(command, args, {
      stdio: ['ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    if (options.lowPriority && child.pid) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // Not fatal: the job still completes, only less politely.
      }
    }
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-4000);
    });
    const kill = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', kill, { once: true });
    const timer = options.timeoutMs ? setTimeout(kill, options.timeoutMs) : undefined;
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      reject(new FfmpegError(`${command} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      if (options.signal?.aborted) return reject(options.signal.reason);
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const last = redactUrls(err.trim().split('\n').slice(-3).join(' | ')) || `exit ${code ?? signal}`;
      reject(new FfmpegError(`${command} failed: ${last}`));
    });
  });
}

/** The tools at the configured paths (FFMPEG_PATH, FFPROBE_PATH). */
export function createMediaTools(paths: { ffmpegPath: string; ffprobePath: string }): MediaTools {
  return {
    async probe(file, signal) {
      let json: string;
      try {
        json = await run(
          paths.ffprobePath,
          ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
          { signal, timeoutMs: 60_000, captureStdout: true },
        );
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof FfmpegError && error.message.includes('could not start')) throw error;
        return undefined; // unreadable: not a media file
      }
      const parsed = JSON.parse(json) as {
        format?: { format_name?: string; duration?: string };
        streams?: RawStream[];
      };
      const streams = parsed.streams ?? [];
      // Cover art in an audio file shows up as a one-frame video stream: not a video.
      const v = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
      const a = streams.find((s) => s.codec_type === 'audio');
      return {
        formatName: parsed.format?.format_name ?? '',
        durationSeconds: Number(parsed.format?.duration ?? NaN),
        video: v
          ? {
              codec: v.codec_name ?? '',
              width: v.width ?? 0,
              height: v.height ?? 0,
              pixelFormat: v.pix_fmt ?? '',
              profile: v.profile,
              level: v.level,
              frameRate: parseRate(v.avg_frame_rate) ?? parseRate(v.r_frame_rate),
            }
          : undefined,
        audioCodec: a?.codec_name,
        audioProfile: a?.profile,
      };
    },
    async ffmpeg(args, options = {}) {
      await run(paths.ffmpegPath, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args], options);
    },
  };
}
