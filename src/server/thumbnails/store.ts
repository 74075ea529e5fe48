import { createHash } from 'node:crypto';
import { badRequest, tooLarge } from '../errors';
import { mediaKeys, type MediaStores, type ObjectRead } from '../storage';

export const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;
const FILE_NAME = /^[0-9a-f]{64}\.(jpg|png)$/;

export const thumbnailUrl = (file: string) => `/thumbnails/${file}`;
export const isThumbnailFile = (name: string) => FILE_NAME.test(name);

/** The image type from its magic bytes; the data URL's claimed type is not trusted. */
function sniff(bytes: Buffer): 'jpg' | 'png' | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  return undefined;
}

/**
 * Stores a JPG or PNG given as a data URL (or bare base64, which the spec allows) in the current
 * media store and returns its file name: the content hash, so the URL can be cached forever and
 * equal images are stored once.
 */
export async function storeThumbnail(media: MediaStores, dataUrl: string): Promise<string> {
  const match = /^(?:data:image\/[a-z+.-]+;base64,)?([A-Za-z0-9+/=\s]+)$/i.exec(dataUrl.trim());
  if (!match) throw badRequest('The thumbnail must be a JPG or PNG image.');
  const base64 = match[1]!.replace(/\s/g, '');
  if (base64.length * 0.75 > MAX_THUMBNAIL_BYTES + 4) throw tooLarge('The thumbnail must be at most 2 MB.');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_THUMBNAIL_BYTES) throw tooLarge('The thumbnail must be at most 2 MB.');
  const type = sniff(bytes);
  if (!type) throw badRequest('The thumbnail must be a JPG or PNG image.');
  const file = `${createHash('sha256').update(bytes).digest('hex')}.${type}`;
  await media.current.put(mediaKeys.thumbnail(file), bytes, {
    contentType: type === 'png' ? 'image/png' : 'image/jpeg',
  });
  return file;
}

/**
 * A thumbnail's bytes: from the current store, else from the local folder (thumbnails stored before
 * the school moved to a bucket, until `media:migrate` copies them).
 */
export async function readThumbnail(media: MediaStores, file: string): Promise<ObjectRead | undefined> {
  const key = mediaKeys.thumbnail(file);
  return (
    (await media.current.read(key)) ?? (media.current === media.local ? undefined : media.local.read(key))
  );
}

/** Whether a thumbnail is stored (in the current store, or the local folder). */
export async function thumbnailExists(media: MediaStores, file: string): Promise<boolean> {
  const key = mediaKeys.thumbnail(file);
  return Boolean((await media.current.head(key)) ?? (await media.local.head(key)));
}
