import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isThumbnailFile, storeThumbnail, thumbnailDir, thumbnailUrl } from '../thumbnails/store';

/**
 * The thumbnail file a course or video should have after an admin's form: a new data URL is
 * stored; nothing (absent, null, '') keeps `current`; a form that sends back an existing
 * thumbnail URL keeps that file.
 */
export async function resolveThumbnail(
  dataDir: string,
  input: string | null | undefined,
  current: string | null,
): Promise<string | null> {
  const value = input?.trim();
  if (!value) return current;
  if (current && value === thumbnailUrl(current)) return current;
  const file = value.startsWith('/thumbnails/') ? value.slice('/thumbnails/'.length) : undefined;
  if (file !== undefined && isThumbnailFile(file)) {
    // Content-addressed: an existing file is exactly the image that URL showed.
    const exists = await stat(path.join(thumbnailDir(dataDir), file)).then(
      () => true,
      () => false,
    );
    if (exists) return file;
  }
  return storeThumbnail(dataDir, value);
}
