import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { badRequest, tooLarge } from '../errors';

export const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;
const FILE_NAME = /^[0-9a-f]{64}\.(jpg|png)$/;

export const thumbnailDir = (dataDir: string) => path.join(dataDir, 'thumbnails');
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
 * Stores a JPG or PNG given as a data URL (or bare base64, which the spec allows) and returns its
 * file name: the content hash, so the URL can be cached forever and equal images are stored once.
 */
export async function storeThumbnail(dataDir: string, dataUrl: string): Promise<string> {
  const match = /^(?:data:image\/[a-z+.-]+;base64,)?([A-Za-z0-9+/=\s]+)$/i.exec(dataUrl.trim());
  if (!match) throw badRequest('The thumbnail must be a JPG or PNG image.');
  const base64 = match[1]!.replace(/\s/g, '');
  if (base64.length * 0.75 > MAX_THUMBNAIL_BYTES + 4) throw tooLarge('The thumbnail must be at most 2 MB.');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_THUMBNAIL_BYTES) throw tooLarge('The thumbnail must be at most 2 MB.');
  const type = sniff(bytes);
  if (!type) throw badRequest('The thumbnail must be a JPG or PNG image.');
  const file = `${createHash('sha256').update(bytes).digest('hex')}.${type}`;
  const dir = thumbnailDir(dataDir);
  await mkdir(dir, { recursive: true });
  // Written aside and renamed, so a crash never leaves a truncated image under its final name.
  const temp = path.join(dir, `.${file}.${process.pid}.tmp`);
  await writeFile(temp, bytes);
  await rename(temp, path.join(dir, file));
  return file;
}
