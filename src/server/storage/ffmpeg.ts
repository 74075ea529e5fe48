import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Writable } from 'node:stream';

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

export interface OutputOptions extends RunOptions {
  /** Fed to ffmpeg's standard input: the input named `-`. */
  stdin?: AsyncIterable<Buffer>;
  /** Hears the bytes written so far as they come. */
  onOutput?: (bytes: number) => void;
}

/**
 * ffmpeg and ffprobe behind a small interface, so the services never build processes themselves.
 * Every input they read goes in through `inputArgs`.
 */
export interface MediaTools {
  /** What ffprobe sees in `file` (a path or a presigned URL); undefined when ffprobe cannot read it at all. */
  probe(file: string, signal?: AbortSignal): Promise<ProbeResult | undefined>;
  /** Runs ffmpeg with `args`; rejects with the tail of its error output. */
  ffmpeg(args: string[], options?: RunOptions): Promise<void>;
  /** Runs ffmpeg with `args` writing to `-` (standard output) and answers what it wrote. */
  ffmpegOutput(args: string[], options?: OutputOptions): Promise<Buffer>;
}

/**
 * Demuxers a file from outside (an upload, a leaked copy, our own segments) is read with: plain
 * containers, which name no other file. Playlists and scripts (hls, concat, image2 and the like)
 * would open whatever a crafted file lists: file:///etc/passwd, another upload, any host.
 */
const CONTAINERS = 'mov,matroska,mpegts,avi,flv';

/** The protocols that reach `input` and nothing else: stdin, the scheme of a presigned URL, or a file. */
function protocolsOf(input: string): string {
  if (input === '-') return 'pipe';
  // A live class's SRT listener (live/ingest.ts): the class's port on this host, nothing else.
  if (input.startsWith('srt://')) return 'srt';
  // nginx's copy of a class's RTMP stream (live/rtmp.ts), read by the ingest node.
  if (input.startsWith('rtmp://')) return 'rtmp,tcp';
  if (input.startsWith('https://')) return 'https,tls,tcp';
  if (input.startsWith('http://')) return 'http,tcp';
  return 'file';
}

/**
 * `-i input` for ffmpeg or ffprobe, held to that one input: its own protocol only, and the demuxer
 * `format` (forced, for inputs we made) or one of the plain containers.
 */
export function inputArgs(input: string, format?: string): string[] {
  return [
    '-protocol_whitelist',
    protocolsOf(input),
    '-format_whitelist',
    format ?? CONTAINERS,
    ...(format ? ['-f', format] : []),
    '-i',
    input,
  ];
}

export class FfmpegError extends Error {}

/**
 * Presigned URLs are credentials for a while, and an SRT address carries its class's passphrase:
 * their query never reaches an error message or a log.
 */
export const redactUrls = (text: string) => text.replace(/((?:https?|srt|rtmps?):\/\/[^\s?]+)\?\S*/g, '$1?…');

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
  options: OutputOptions & { timeoutMs?: number; captureStdout?: boolean } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const child = spawn(command, args, {
      stdio: [options.stdin ? 'pipe' : 'ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    if (options.lowPriority && child.pid) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // Not fatal: the job still completes, only less politely.
      }
    }
    const out: Buffer[] = [];
    let written = 0;
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out.push(chunk);
      written += chunk.length;
      options.onOutput?.(written);
    });
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
      if (code === 0) return resolve(Buffer.concat(out));
      const last = redactUrls(err.trim().split('\n').slice(-3).join(' | ')) || `exit ${code ?? signal}`;
      reject(new FfmpegError(`${command} failed: ${last}`));
    });
    if (options.stdin) feed(child.stdin!, options.stdin);
  });
}

/** Writes `input` to a child's stdin; a child that stopped reading early says why by its exit code. */
function feed(stdin: Writable, input: AsyncIterable<Buffer>): void {
  stdin.on('error', () => undefined);
  void (async () => {
    for await (const chunk of input) {
      if (!stdin.write(chunk)) await new Promise((r) => stdin.once('drain', r));
    }
    stdin.end();
  })().catch(() => stdin.destroy());
}

/** Throws on an `-i` that did not come from inputArgs: a bug to fix, never to run. */
function assertGuardedInputs(args: string[]): void {
  let guarded = false;
  for (const arg of args) {
    if (arg === '-protocol_whitelist') guarded = true;
    if (arg !== '-i') continue;
    if (!guarded) throw new Error(`an ffmpeg input without inputArgs: ${args.join(' ')}`);
    guarded = false;
  }
}

/** The tools at the configured paths (FFMPEG_PATH, FFPROBE_PATH). */
export function createMediaTools(paths: { ffmpegPath: string; ffprobePath: string }): MediaTools {
  return {
    async probe(file, signal) {
      let json: string;
      try {
        const out = await run(
          paths.ffprobePath,
          ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs(file)],
          { signal, timeoutMs: 60_000, captureStdout: true },
        );
        json = out.toString('utf8');
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
      assertGuardedInputs(args);
      await run(paths.ffmpegPath, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args], options);
    },
    async ffmpegOutput(args, options = {}) {
      assertGuardedInputs(args);
      const quiet = ['-hide_banner', '-loglevel', 'error', ...(options.stdin ? [] : ['-nostdin'])];
      return run(paths.ffmpegPath, [...quiet, ...args], { ...options, captureStdout: true });
    },
  };
}
