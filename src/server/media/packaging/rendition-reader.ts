import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { videoKeys } from '../../db/schema';
import { VARIANT_B_TAG } from '../../forensic/mark';
import { mediaKeys, readText, type MediaStore } from '../store';
import { PLAYLIST } from './hls';
import { decryptSegment, periodOfKeyUri, segmentKey } from './segment-keys';

/** Whether a packaged playlist lists forensic A/B variants (docs/FORENSIC.md). */
export const isMarkedPlaylist = (playlist: string | undefined) => playlist?.includes(VARIANT_B_TAG) ?? false;

/**
 * A packaged rendition's MPEG-TS, decrypted, segment after segment, straight from the store: what a
 * player would decode. Of a marked rendition, `variant` picks A (the listed segments) or B (the
 * VARIANT_B_TAG lines). Undefined when the rendition has no playlist.
 */
export async function renditionSegments(
  db: Db,
  store: MediaStore,
  videoId: string,
  rendition: string,
  variant: 'A' | 'B' = 'A',
): Promise<AsyncGenerator<Buffer> | undefined> {
  const playlist = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
  if (playlist === undefined) return undefined;
  if (variant === 'B' && !isMarkedPlaylist(playlist)) throw new Error(`rendition ${rendition} is not marked`);
  const keys = new Map(
    (await db.select().from(videoKeys).where(eq(videoKeys.videoId, videoId))).map((k) => [
      k.period,
      Buffer.from(k.key, 'hex'),
    ]),
  );
  async function keyOf(period: number): Promise<Buffer | undefined> {
    // A video packaged before key rotation has its one key in videos.hls_key.
    return keys.get(period) ?? (await segmentKey(db, videoId, period));
  }
  return (async function* () {
    let period: number | undefined;
    let sequence = 0;
    let alternate = '';
    for (const line of playlist.split('\n')) {
      const seq = /^#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(line);
      if (seq) sequence = Number(seq[1]);
      const keyLine = /^#EXT-X-KEY:.*URI="([^"]*)"/.exec(line);
      if (keyLine) period = periodOfKeyUri(keyLine[1]!);
      if (line.startsWith(VARIANT_B_TAG)) alternate = line.slice(VARIANT_B_TAG.length);
      if (!line || line.startsWith('#')) continue;
      const file = variant === 'A' ? line.trim() : alternate;
      const read = await store.read(mediaKeys.videoFile(videoId, rendition, file));
      if (!read?.body) throw new Error(`segment ${file} of ${rendition} is missing`);
      const pieces: Buffer[] = [];
      for await (const piece of read.body) pieces.push(piece as Buffer);
      const bytes = Buffer.concat(pieces);
      const key = period === undefined ? undefined : await keyOf(period);
      if (period !== undefined && !key) throw new Error(`key ${period} of ${videoId} is missing`);
      yield key ? decryptSegment(bytes, key, sequence) : bytes;
      sequence++;
    }
  })();
}
