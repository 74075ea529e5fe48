import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { videoKeys, videos } from '../../db/schema';
import { openSegmentKey, videoSecret, wrapSegmentKey, type SecretContext } from '../../videos/video-secrets';
import { PLAYLIST } from './hls';

/** The key URI a packaged playlist names for a period; the delivery rewrites it to the key route. */
export const keyUriOf = (period: number) => `key:${period}`;
/** The period a packaged playlist's key URI names (legacy single-key playlists: period 0). */
export function periodOfKeyUri(uri: string): number {
  const m = /^key:(\d{1,6})$/.exec(uri);
  return m ? Number(m[1]) : 0;
}

/** Key N covers the segments that start in [N, N+1) × rotation seconds of media. */
export const periodAt = (startSeconds: number, rotationSeconds: number) =>
  Math.floor(startSeconds / rotationSeconds + 1e-6);

/** HLS's implicit IV: the segment's media sequence number, 128-bit big-endian. */
function ivOf(sequence: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(sequence, 12);
  return iv;
}

export type KeysFor = (periods: number[]) => Promise<Map<number, Buffer>>;

/**
 * The keys of `videoId` for `periods`, made on first use (racing writers agree: the first insert
 * wins and everyone reads it back). Every rendition of a video shares them. Stored wrapped
 * (videos/video-secrets.ts); answered as the 16 bytes.
 */
export function videoKeysFor(ctx: SecretContext, videoId: string): KeysFor {
  const { db, signingKey } = ctx;
  return async (periods) => {
    if (!periods.length) return new Map();
    // A video packaged before key rotation keeps its one key as period 0, so its segments still play.
    const [video] = await db.select({ hlsKey: videos.hlsKey }).from(videos).where(eq(videos.id, videoId));
    if (video?.hlsKey) {
      const key = wrapSegmentKey(signingKey, videoId, openSegmentKey(signingKey, videoId, video.hlsKey));
      await db.insert(videoKeys).values({ videoId, period: 0, key }).onConflictDoNothing();
    }
    await db
      .insert(videoKeys)
      .values(
        periods.map((period) => ({
          videoId,
          period,
          key: wrapSegmentKey(signingKey, videoId, randomBytes(16)),
        })),
      )
      .onConflictDoNothing();
    const rows = await db
      .select({ period: videoKeys.period, key: videoKeys.key })
      .from(videoKeys)
      .where(and(eq(videoKeys.videoId, videoId), inArray(videoKeys.period, periods)));
    return new Map(rows.map((r) => [r.period, openSegmentKey(signingKey, videoId, r.key)]));
  };
}

/**
 * Key `period` of a video as the key route serves it; a video packaged before key rotation has its
 * one key as period 0. Throws VideoSecretError when the stored key does not open with this
 * install's signing key.
 */
export async function segmentKey(
  ctx: SecretContext,
  videoId: string,
  period: number,
): Promise<Buffer | undefined> {
  const [row] = await ctx.db
    .select({ key: videoKeys.key })
    .from(videoKeys)
    .where(and(eq(videoKeys.videoId, videoId), eq(videoKeys.period, period)))
    .limit(1);
  if (row) return openSegmentKey(ctx.signingKey, videoId, row.key);
  if (period !== 0) return undefined;
  return videoSecret(ctx, videoId, 'hlsKey');
}

/** The first segment a packaged playlist lists: its file, media sequence number and key period (none: plain). */
export function firstSegmentOf(
  playlist: string,
): { file: string; sequence: number; period: number | undefined } | undefined {
  let sequence = 0;
  let period: number | undefined;
  for (const line of playlist.split('\n')) {
    const seq = /^#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(line);
    if (seq) sequence = Number(seq[1]);
    const key = /^#EXT-X-KEY:.*URI="([^"]*)"/.exec(line);
    if (key) period = periodOfKeyUri(key[1]!);
    if (line && !line.startsWith('#')) return { file: line.trim(), sequence, period };
  }
  return undefined;
}

/** A segment's plain bytes (AES-128-CBC with HLS's implicit IV, as a player decrypts it). */
export function decryptSegment(bytes: Buffer, key: Buffer, sequence: number): NonSharedBuffer {
  const decipher = createDecipheriv('aes-128-cbc', key, ivOf(sequence));
  return Buffer.concat([decipher.update(bytes), decipher.final()]);
}

interface Segment {
  uri: string;
  sequence: number;
  start: number;
}

/**
 * Encrypts the plain rendition ffmpeg wrote in `dir` with AES-128-CBC, one key per period of
 * `rotationSeconds` of media, and rewrites its playlist with an #EXT-X-KEY line where the key
 * changes. `decryptWith` (re-keying) first decrypts segments encrypted under the old single key.
 */
export async function encryptRendition(
  dir: string,
  keysFor: KeysFor,
  rotationSeconds: number,
  rekey?: {
    /** The key the segment is encrypted with now (by its old playlist's period). */
    decryptWith: (period: number) => Buffer;
    /** The name the re-encrypted segment gets (the original file is left as it was when it differs). */
    rename: (file: string, period: number) => string;
  },
): Promise<void> {
  const file = path.join(dir, PLAYLIST);
  const lines = (await readFile(file, 'utf8')).split('\n');
  const segments: Segment[] = [];
  let sequence = 0;
  let start = 0;
  let duration = 0;
  let oldPeriod = 0;
  const oldPeriods = new Map<string, number>();
  for (const line of lines) {
    const seq = /^#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(line);
    if (seq) sequence = Number(seq[1]);
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) duration = Number(inf[1]);
    const key = /^#EXT-X-KEY:.*URI="([^"]*)"/.exec(line);
    if (key) oldPeriod = periodOfKeyUri(key[1]!);
    if (line && !line.startsWith('#')) {
      segments.push({ uri: line, sequence: sequence++, start });
      oldPeriods.set(line, oldPeriod);
      start += duration;
    }
  }
  const keys = await keysFor([...new Set(segments.map((s) => periodAt(s.start, rotationSeconds)))]);
  for (const segment of segments) {
    const key = keys.get(periodAt(segment.start, rotationSeconds));
    if (!key) throw new Error(`no key for the segment at ${segment.start}s`);
    let bytes = await readFile(path.join(dir, segment.uri));
    if (rekey) {
      bytes = decryptSegment(bytes, rekey.decryptWith(oldPeriods.get(segment.uri)!), segment.sequence);
      segment.uri = rekey.rename(segment.uri, periodAt(segment.start, rotationSeconds));
    }
    const cipher = createCipheriv('aes-128-cbc', key, ivOf(segment.sequence));
    await writeFile(path.join(dir, segment.uri), Buffer.concat([cipher.update(bytes), cipher.final()]));
  }

  const out: string[] = [];
  let current = -1;
  let index = 0;
  for (const line of lines) {
    if (line.startsWith('#EXT-X-KEY:')) continue;
    if (line && !line.startsWith('#')) {
      const segment = segments[index++]!;
      const period = periodAt(segment.start, rotationSeconds);
      if (period !== current) {
        // The #EXTINF line just written belongs after the key line.
        const extinf = out.pop()!;
        out.push(`#EXT-X-KEY:METHOD=AES-128,URI="${keyUriOf(period)}"`, extinf);
        current = period;
      }
      out.push(segment.uri);
      continue;
    }
    out.push(line);
  }
  await writeFile(file, out.join('\n'));
}
