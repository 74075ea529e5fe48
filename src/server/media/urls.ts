/** The streamer's public URL scheme; the admin API stores `url` and the player fetches it. */

export const videoUrl = (videoId: string) => `/stream/videos/${videoId}/master.m3u8`;
export const videoDeleteUrl = (videoId: string) => `/stream/videos/${videoId}`;
export const videoPosterUrl = (videoId: string) => `/stream/videos/${videoId}/poster.jpg`;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const VIDEO_URL = new RegExp(`^(?:https?://[^/]+)?/stream/videos/(${UUID})/master\\.m3u8$`, 'i');

/** The video id inside a stream URL (absolute or relative), or undefined when it is not one of ours. */
export function videoIdFromUrl(url: string): string | undefined {
  return VIDEO_URL.exec(url.trim())?.[1]?.toLowerCase();
}
