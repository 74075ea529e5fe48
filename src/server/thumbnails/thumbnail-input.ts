import type { MediaStores } from '../storage';
import { isThumbnailFile, storeThumbnail, thumbnailExists, thumbnailUrl } from './store';

/**
 * The thumbnail file a course or video should have after an admin's form: a new data URL is
 * stored; nothing (absent, null, '') keeps `current`; a form that sends back an existing
 * thumbnail URL keeps that file.
 */
export async function resolveThumbnail(
  media: MediaStores,
  input: string | null | undefined,
  current: string | null,
): Promise<string | null> {
  const value = input?.trim();
  if (!value) return current;
  if (current && value === thumbnailUrl(current)) return current;
  const file = value.startsWith('/thumbnails/') ? value.slice('/thumbnails/'.length) : undefined;
  if (file !== undefined && isThumbnailFile(file)) {
    // Content-addressed: an existing file is exactly the image that URL showed.
    if (await thumbnailExists(media, file)) return file;
  }
  return storeThumbnail(media, value);
}
