import { UUID_SOURCE } from '../db/ids';

/**
 * The streamer's public URL scheme, built and read here only (the route table in src/contract
 * names the same paths); the admin API stores `url` and the player fetches it.
 */
export const STREAM_VIDEOS = '/stream/videos/';

export const videoUrl = (videoId: string) => `${STREAM_VIDEOS}${videoId}/master.m3u8`;
export const videoDeleteUrl = (videoId: string) => `${STREAM_VIDEOS}${videoId}`;
export const videoPosterUrl = (videoId: string) => `${STREAM_VIDEOS}${videoId}/poster.jpg`;
/** Where the player asks for key `period` of a video (the key route: session and access checked). */
export const videoKeyUrl = (videoId: string, period: number) => `${STREAM_VIDEOS}${videoId}/keys/${period}`;
/** A rendition's file (child playlist or segment), as links are signed for it. */
export const videoFileUrl = (videoId: string, rendition: string, file: string) =>
  `${STREAM_VIDEOS}${videoId}/${rendition}/${file}`;

/** A rendition's folder name (`v720`). */
export const RENDITION_SOURCE = 'v\\d{2,4}';
/** A segment's file name: `seg_00003.ts`, re-keyed `seg_00003_k.ts`, or a marked variant `f_<hex>.ts`. */
export const SEGMENT_FILE_SOURCE = '(?:seg_\\d{5}(?:_k)?|f_[0-9a-f]{32})\\.ts';

/** A signed segment link as the fast path reads it: video id, rendition, file and token. */
export const SEGMENT_LINK = new RegExp(
  `^${STREAM_VIDEOS}(${UUID_SOURCE})/(${RENDITION_SOURCE})/(${SEGMENT_FILE_SOURCE})\\?t=([\\w.-]{1,120})$`,
);

const VIDEO_URL = new RegExp(`^(?:https?://[^/]+)?${STREAM_VIDEOS}(${UUID_SOURCE})/master\\.m3u8$`, 'i');

/** The video id inside a stream URL (absolute or relative), or undefined when it is not one of ours. */
export function videoIdFromUrl(url: string): string | undefined {
  return VIDEO_URL.exec(url.trim())?.[1]?.toLowerCase();
}
