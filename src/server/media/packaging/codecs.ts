import type { ProbeResult } from '../../storage/ffmpeg';

/**
 * profile_idc and the usual constraint flags byte of each H.264 profile ffprobe names (ISO/IEC
 * 14496-10 A.2; flags as x264 writes them: constraint_set0+1 for Constrained Baseline, set1 for Main).
 */
const AVC_PROFILES: Record<string, [profileIdc: number, constraints: number]> = {
  'Constrained Baseline': [0x42, 0xc0],
  Baseline: [0x42, 0x00],
  Main: [0x4d, 0x40],
  Extended: [0x58, 0x00],
  High: [0x64, 0x00],
  'Progressive High': [0x64, 0x08],
  'Constrained High': [0x64, 0x0c],
  'High 10': [0x6e, 0x00],
  'High 10 Intra': [0x6e, 0x10],
  'High 4:2:2': [0x7a, 0x00],
  'High 4:2:2 Intra': [0x7a, 0x10],
  'High 4:4:4 Predictive': [0xf4, 0x00],
  'High 4:4:4 Intra': [0xf4, 0x10],
};

/** MPEG-4 audio object types of the AAC profiles ffprobe names (RFC 6381 `mp4a.40.N`). */
const AAC_OBJECT_TYPES: Record<string, number> = {
  Main: 1,
  LC: 2,
  SSR: 3,
  LTP: 4,
  'HE-AAC': 5,
  'HE-AACv2': 29,
};

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** `avc1.PPCCLL` (RFC 6381) of an H.264 stream, or undefined for another codec or an unknown profile. */
export function avcCodec(video: NonNullable<ProbeResult['video']>): string | undefined {
  const profile = video.profile === undefined ? undefined : AVC_PROFILES[video.profile];
  if (video.codec !== 'h264' || !profile || !video.level || video.level <= 0 || video.level > 255)
    return undefined;
  return `avc1.${hex2(profile[0])}${hex2(profile[1])}${hex2(video.level)}`;
}

/** `mp4a.40.N` of an AAC stream (LC when ffprobe names no profile), or undefined for other audio. */
export function aacCodec(codec: string | undefined, profile: string | undefined): string | undefined {
  if (codec !== 'aac') return undefined;
  return `mp4a.40.${AAC_OBJECT_TYPES[profile ?? 'LC'] ?? 2}`;
}

/** What a master playlist's EXT-X-STREAM-INF says of a rendition's streams (RFC 8216 4.3.4.2). */
export interface StreamDescription {
  /** `avc1.64001f,mp4a.40.2`: every codec of the rendition, or none when one is unknown. */
  codecs?: string;
  /** Frames per second, e.g. 29.97. */
  frameRate?: number;
}

/**
 * The CODECS and FRAME-RATE of a packaged segment as ffprobe saw it. CODECS lists every format,
 * so it is left out when any stream's string is unknown (a wrong list would make players skip the
 * rendition); a video-only rendition lists the video codec alone.
 */
export function describeStreams(probe: ProbeResult): StreamDescription {
  const video = probe.video && avcCodec(probe.video);
  const audio = aacCodec(probe.audioCodec, probe.audioProfile);
  const complete = video && (probe.audioCodec === undefined || audio);
  const frameRate = probe.video?.frameRate;
  return {
    ...(complete && { codecs: [video, audio].filter(Boolean).join(',') }),
    ...(frameRate && frameRate > 0 && frameRate < 1000 && { frameRate }),
  };
}

/** FRAME-RATE's decimal-floating-point, rounded to three places as RFC 8216 4.3.4.2 asks. */
export const frameRateAttribute = (fps: number) => fps.toFixed(3);
