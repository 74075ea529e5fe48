import path from 'node:path';
import { inputArgs, type MediaTools, type ProbeResult } from '../../storage/ffmpeg';
import { describeStreams, type StreamDescription } from './codecs';
import { markedLadderFilter, type Variant } from '../../marks/mark';
import { ensureScratchDir, readScratchText, scratchFileSize, writeScratchFile } from '../../storage/scratch';
import { SEGMENT_FILE_SOURCE } from '../../videos/stream-urls';

/** Target segment length; remuxed segments cut at the source's keyframes, so they are "about" this. */
export const SEGMENT_SECONDS = 6;
/** Heights of the adaptive ladder; a rung is made only below the source's height (never upscaled). */
export const LADDER_HEIGHTS = [360, 540, 720, 1080] as const;
/** Peak video bitrates per rung (kbit/s), for -maxrate. */
const RUNG_MAXRATE: Record<number, number> = { 360: 900, 540: 1800, 720: 3000, 1080: 5500 };

export const PLAYLIST = 'index.m3u8';
export const INFO_FILE = 'info.json';
/**
 * `seg_00003.ts`, or `seg_00003_k.ts` once re-keyed (a new name: old playlists keep their bytes), or
 * `f_<32 hex>.ts`, a variant of a marked rendition (marks/mark.ts `variantFileName`).
 */
export const SEGMENT_PATTERN = new RegExp(`^${SEGMENT_FILE_SOURCE}$`);

/** What the master playlist needs to list a rendition. */
export interface RenditionInfo {
  width: number;
  height: number;
  /** Peak bits per second over any segment (HLS BANDWIDTH). */
  bandwidth: number;
  averageBandwidth: number;
  /** CODECS and FRAME-RATE of the master playlist, from ffprobe; absent in renditions packaged before
   * they were recorded (the delivery fills them in on first read: delivery/stream-descriptions.ts). */
  codecs?: string;
  frameRate?: number;
}

export type PackagingPlan =
  { kind: 'remux'; audio: AudioPlan } | { kind: 'encode'; height: number; audio: AudioPlan };

/**
 * Audio is the same in every rendition: AAC is copied as it is (encoding it again cost as much CPU
 * as a 360p rung's video); other audio is encoded to AAC.
 */
export type AudioPlan = 'copy' | 'aac' | 'none';

export function audioPlanFor(probe: ProbeResult): AudioPlan {
  return probe.audioCodec === undefined ? 'none' : probe.audioCodec === 'aac' ? 'copy' : 'aac';
}

/**
 * H.264 in 4:2:0 plays everywhere as is: copy it (hundreds of times faster than real time). AAC audio
 * is copied too; other audio is re-encoded alone, which is cheap. Anything else is transcoded.
 */
export function planFor(probe: ProbeResult): PackagingPlan {
  const video = probe.video!;
  const audio = audioPlanFor(probe);
  if (video.codec === 'h264' && /^yuvj?420p$/.test(video.pixelFormat)) return { kind: 'remux', audio };
  return { kind: 'encode', height: evenDown(video.height), audio };
}

/** Rungs below the source: the source rendition already serves its own height. */
export function ladderFor(sourceHeight: number): number[] {
  return LADDER_HEIGHTS.filter((h) => h < sourceHeight);
}

const evenDown = (n: number) => Math.max(2, n - (n % 2));

/** `-c:a` and its settings for an audio plan. */
function audioArgs(audio: AudioPlan): string[] {
  if (audio === 'copy') return ['-c:a', 'copy'];
  return audio === 'aac' ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : [];
}

function encodeArgs(height: number, audio: AudioPlan, scaled: boolean, segmentSeconds: number): string[] {
  const maxrate = RUNG_MAXRATE[height] ?? Math.round((height * height * 3) / 500);
  return [
    ...(scaled ? [] : ['-vf', `scale=-2:${height}`]),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-crf',
    '22',
    '-maxrate',
    `${maxrate}k`,
    '-bufsize',
    `${maxrate * 2}k`,
    // Keyframes on the segment grid, so every rung cuts at the same instants and players can switch.
    '-force_key_frames',
    `expr:gte(t,n_forced*${segmentSeconds})`,
    '-sc_threshold',
    '0',
    ...audioArgs(audio),
  ];
}

/** The HLS muxer writing one rendition into `outDir` (`index.m3u8`, `seg_00000.ts`…). */
function hlsOutputArgs(outDir: string, segmentSeconds: number): string[] {
  return [
    '-sn',
    '-dn',
    '-map_metadata',
    '-1',
    '-f',
    'hls',
    '-hls_time',
    String(segmentSeconds),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'mpegts',
    '-hls_segment_filename',
    path.join(outDir, 'seg_%05d.ts'),
    path.join(outDir, PLAYLIST),
  ];
}

/**
 * Writes one plain HLS rendition of `source` into `outDir` (`index.m3u8`, `seg_00000.ts`…,
 * `info.json`); `encryptRendition` (segment-keys.ts) encrypts it before it is published.
 */
export async function writeRendition(
  tools: MediaTools,
  input: {
    source: string;
    sourceSize: { width: number; height: number };
    outDir: string;
    plan: PackagingPlan;
    signal?: AbortSignal;
    lowPriority?: boolean;
    /** Segment length (and keyframe grid); SEGMENT_SECONDS by default. */
    segmentSeconds?: number;
  },
): Promise<RenditionInfo> {
  const { source, outDir, plan } = input;
  const segmentSeconds = input.segmentSeconds ?? SEGMENT_SECONDS;
  await ensureScratchDir(outDir);
  const codecArgs =
    plan.kind === 'remux'
      ? ['-c:v', 'copy', ...audioArgs(plan.audio)]
      : encodeArgs(plan.height, plan.audio, false, segmentSeconds);
  await tools.ffmpeg(
    [
      ...inputArgs(source),
      '-map',
      '0:v:0',
      ...(plan.audio === 'none' ? [] : ['-map', '0:a:0']),
      ...codecArgs,
      ...hlsOutputArgs(outDir, segmentSeconds),
    ],
    { signal: input.signal, lowPriority: input.lowPriority },
  );
  return describeRendition(tools, outDir, plan, input.sourceSize, input.signal);
}

/**
 * Writes both forensic variants (docs/FORENSIC.md) of every rung in `heights`, each a plain HLS
 * rendition in `outDirOf(height, variant)`, with ONE ffmpeg process: the source is decoded once and
 * each rung scaled once, then marked both ways and encoded (2 x heights encoders). A process per
 * variant decoded and scaled the source 2 x heights times: ~30% more CPU (`npm run bench --
 * forensic`). Returns each variant's info, keyed `${height}${variant}`.
 */
export async function writeMarkedVariants(
  tools: MediaTools,
  input: {
    source: string;
    sourceSize: { width: number; height: number };
    heights: number[];
    audio: AudioPlan;
    patternFile: string;
    segmentSeconds: number;
    outDirOf: (height: number, variant: Variant) => string;
    signal?: AbortSignal;
    lowPriority?: boolean;
  },
): Promise<Map<string, RenditionInfo>> {
  const { heights, audio, segmentSeconds, outDirOf } = input;
  const graph = markedLadderFilter({ patternFile: input.patternFile, segmentSeconds, heights });
  const outputs: string[] = [];
  for (const { height, variant, label } of graph.outputs) {
    await ensureScratchDir(outDirOf(height, variant));
    outputs.push(
      '-map',
      label,
      ...(audio === 'none' ? [] : ['-map', '0:a:0']),
      ...encodeArgs(height, audio, true, segmentSeconds),
      ...hlsOutputArgs(outDirOf(height, variant), segmentSeconds),
    );
  }
  await tools.ffmpeg(
    [...inputArgs(input.source), ...graph.inputArgs, '-filter_complex', graph.filterComplex, ...outputs],
    { signal: input.signal, lowPriority: input.lowPriority },
  );
  const infos = new Map<string, RenditionInfo>();
  for (const { height, variant } of graph.outputs) {
    const plan = { kind: 'encode', height, audio } as const;
    const dir = outDirOf(height, variant);
    infos.set(
      `${height}${variant}`,
      await describeRendition(tools, dir, plan, input.sourceSize, input.signal),
    );
  }
  return infos;
}

/** What ffprobe sees in one packaged (plain) segment: the codecs and frame rate players are told. */
export async function describeSegment(
  tools: MediaTools,
  file: string,
  signal?: AbortSignal,
): Promise<StreamDescription> {
  const probe = await tools.probe(file, signal);
  return probe ? describeStreams(probe) : {};
}

async function describeRendition(
  tools: MediaTools,
  outDir: string,
  plan: PackagingPlan,
  sourceSize: { width: number; height: number },
  signal: AbortSignal | undefined,
): Promise<RenditionInfo> {
  const playlist = await readScratchText(path.join(outDir, PLAYLIST));
  const lines = playlist.split('\n');
  let total = 0;
  let totalBytes = 0;
  let peak = 0;
  let first: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = /^#EXTINF:([\d.]+)/.exec(lines[i]!);
    if (!m) continue;
    const duration = Number(m[1]);
    const segment = lines.slice(i + 1).find((l) => l && !l.startsWith('#'));
    if (!segment) continue;
    first ??= segment;
    const bytes = await scratchFileSize(path.join(outDir, segment));
    total += duration;
    totalBytes += bytes;
    if (duration > 0.5) peak = Math.max(peak, (bytes * 8) / duration);
  }
  if (total === 0) throw new Error('ffmpeg wrote no segments');
  const averageBandwidth = Math.round((totalBytes * 8) / total);
  const { width, height } =
    plan.kind === 'remux' || !sourceSize.height
      ? sourceSize
      : {
          width: evenDown(Math.round((sourceSize.width * plan.height) / sourceSize.height)),
          height: plan.height,
        };
  const info: RenditionInfo = {
    width,
    height,
    bandwidth: Math.round(Math.max(peak, averageBandwidth)),
    averageBandwidth,
    // Before encryption, so ffprobe reads the segment as players will after decrypting it.
    ...(await describeSegment(tools, path.join(outDir, first!), signal)),
  };
  await writeScratchFile(path.join(outDir, INFO_FILE), JSON.stringify(info));
  return info;
}

/** A poster frame a little way in (the first frame is often black), at most 720 lines high. */
export async function writePoster(
  tools: MediaTools,
  input: { source: string; file: string; durationSeconds: number; signal?: AbortSignal },
): Promise<void> {
  const at = Math.min(2, Math.max(0, input.durationSeconds / 3));
  await tools.ffmpeg(
    [
      '-ss',
      at.toFixed(2),
      ...inputArgs(input.source),
      '-frames:v',
      '1',
      '-vf',
      "scale=-2:'min(720,ih)'",
      '-q:v',
      '3',
      input.file,
    ],
    { signal: input.signal },
  );
}
