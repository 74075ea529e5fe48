import { eq } from 'drizzle-orm';
import { videoKeys } from '../../db/schema';
import { openSegmentKey, type SecretContext } from '../../videos/video-secrets';
import { VARIANT_B_TAG } from '../../marks/mark';
import { mediaKeys, readText, type MediaStore } from '../../storage';
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
  ctx: SecretContext,
  store: MediaStore,
  videoId: string,
  rendition: string,
  variant: 'A' | 'B' = 'A',
): Promise<AsyncGenerator<Buffer> | undefined> {
  const playlist = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
  if (playlist === undefined) return undefined;
  if (variant === 'B' && !isMarkedPlaylist(playlist)) throw new Error(`rendition ${rendition} is not marked`);
  const keys = new Map(
    (await ctx.db.select().from(videoKeys).where(eq(videoKeys.videoId, videoId))).map((k) => [
      k.period,
      openSegmentKey(ctx.signingKey, videoId, k.key),
    ]),
  );
  async function keyOf(period: number): Promise<Buffer | undefined> {
    // A video packaged before key rotation has its one key in videos.hls_key.
    return keys.get(period) ?? (await segmentKey(ctx, videoId, period));
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

/**
 * The one segment of an unmarked rendition that holds second `t`, decrypted, and where `t` falls
 * inside it: a still of that moment (search results, a question's frame) without reading the segments
 * before it. Undefined when the rendition has no playlist or no segment, or is marked (its segments
 * carry forensic variants, and a still must show no student's variant).
 */
export async function renditionSegmentAt(
  ctx: SecretContext,
  store: MediaStore,
  videoId: string,
  rendition: string,
  t: number,
): Promise<{ bytes: Buffer; offset: number } | undefined> {
  const playlist = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
  if (playlist === undefined || isMarkedPlaylist(playlist)) return undefined;
  let period: number | undefined;
  let sequence = 0;
  let start = 0;
  let length = 0;
  let found: { file: string; period: number | undefined; sequence: number; start: number } | undefined;
  for (const line of playlist.split('\n')) {
    const seq = /^#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(line);
    if (seq) sequence = Number(seq[1]);
    const keyLine = /^#EXT-X-KEY:.*URI="([^"]*)"/.exec(line);
    if (keyLine) period = periodOfKeyUri(keyLine[1]!);
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) length = Number(inf[1]);
    if (!line || line.startsWith('#')) continue;
    // The last segment that starts at or before t (a moment past the end takes the last one).
    if (start <= t || !found) found = { file: line.trim(), period, sequence, start };
    start += length;
    sequence++;
  }
  if (!found) return undefined;
  const read = await store.read(mediaKeys.videoFile(videoId, rendition, found.file));
  if (!read?.body) throw new Error(`segment ${found.file} of ${rendition} is missing`);
  const pieces: Buffer[] = [];
  for await (const piece of read.body) pieces.push(piece as Buffer);
  const bytes = Buffer.concat(pieces);
  if (found.period === undefined) return { bytes, offset: t - found.start };
  const key = (await ctx.db.select().from(videoKeys).where(eq(videoKeys.videoId, videoId))).find(
    (k) => k.period === found.period,
  );
  const open = key
    ? openSegmentKey(ctx.signingKey, videoId, key.key)
    : await segmentKey(ctx, videoId, found.period);
  if (!open) throw new Error(`key ${found.period} of ${videoId} is missing`);
  return { bytes: decryptSegment(bytes, open, found.sequence), offset: Math.max(0, t - found.start) };
}
