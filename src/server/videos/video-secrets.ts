import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { and, eq, like, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { videoKeys, videos } from '../db/schema';

/**
 * Video secrets at rest: the AES-128 segment keys (`video_keys.key`, and `videos.hls_key` of a
 * video packaged before key rotation) and the forensic-mark secrets (`videos.forensic_secret`).
 * The database holds each one wrapped: AES-256-GCM under a key derived (HKDF-SHA256, its own
 * purpose label) from the signing key, with the kind of secret and the video's id as associated
 * data, so a wrapped key copied onto another video's row does not open. Stored as
 * `w1.<base64url of iv | tag | ciphertext>`; a row written before wrapping holds plain hex, which
 * is still read, and `wrapStoredSecrets` (run by `migrate:post-deploy` and by a restore) wraps.
 * A database alone (a dump, a stolen disk, a backup) then holds no usable key; with it, the
 * signing key. This module is the only reader and writer of those columns (live/stream-keys.ts wraps
 * the live classes' stream keys with it, bound to the class's id).
 */

export type SecretKind = 'segment-key' | 'forensic-secret' | 'stream-key';

/** Who may read and write video secrets: the database and the install's signing key. */
export interface SecretContext {
  db: Db;
  signingKey: Buffer;
}

const PREFIX = 'w1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret that does not open with this install's signing key (or was tampered with). */
export class VideoSecretError extends Error {
  constructor(
    readonly videoId: string,
    readonly kind: SecretKind,
  ) {
    super(
      `The ${kind} of video ${videoId} does not open with this signing key: the database was written under another SIGNING_KEY, or the row was changed.`,
    );
    this.name = 'VideoSecretError';
  }
}

/** Whether a stored value is wrapped (else it is a plain hex secret from before wrapping). */
export const isWrapped = (stored: string) => stored.startsWith(PREFIX);

// One derivation per signing key (per process, in practice one key).
const wrapKeys = new WeakMap<Buffer, Buffer>();
function wrapKeyOf(signingKey: Buffer): Buffer {
  let key = wrapKeys.get(signingKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', signingKey, Buffer.alloc(0), 'lectern video secret wrap v1', 32));
    wrapKeys.set(signingKey, key);
  }
  return key;
}

const aadOf = (kind: SecretKind, videoId: string) => Buffer.from(`lectern ${kind}\0${videoId}`);

/** `secret` wrapped for `videoId`, as the database stores it. */
export function wrapSecret(signingKey: Buffer, videoId: string, kind: SecretKind, secret: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', wrapKeyOf(signingKey), iv);
  cipher.setAAD(aadOf(kind, videoId));
  const body = Buffer.concat([cipher.update(secret), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * The secret's bytes from its stored form: unwrapped, or (a row from before wrapping) decoded from
 * hex. Throws VideoSecretError when the wrapped value does not open: another signing key, another
 * video's row, another kind of secret, or changed bytes.
 */
export function unwrapSecret(signingKey: Buffer, videoId: string, kind: SecretKind, stored: string): Buffer {
  if (!isWrapped(stored)) {
    if (!/^(?:[0-9a-f]{2})+$/i.test(stored)) throw new VideoSecretError(videoId, kind);
    return Buffer.from(stored, 'hex');
  }
  const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) throw new VideoSecretError(videoId, kind);
  try {
    const decipher = createDecipheriv('aes-256-gcm', wrapKeyOf(signingKey), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(aadOf(kind, videoId));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new VideoSecretError(videoId, kind);
  }
}

/**
 * A secret the video's row keeps (its forensic-mark secret, or the single HLS key of a video
 * packaged before key rotation), as bytes. Undefined when the video or the secret is missing.
 */
export async function videoSecret(
  ctx: SecretContext,
  videoId: string,
  secret: 'forensicSecret' | 'hlsKey',
): Promise<Buffer | undefined> {
  const [row] = await ctx.db
    .select({ stored: videos[secret] })
    .from(videos)
    .where(eq(videos.id, videoId))
    .limit(1);
  return row?.stored ? unwrapSecret(ctx.signingKey, videoId, kindOf(secret), row.stored) : undefined;
}

const kindOf = (column: 'forensicSecret' | 'hlsKey'): SecretKind =>
  column === 'hlsKey' ? 'segment-key' : 'forensic-secret';

/** A row's forensic secret as read with the playback decision: bytes, or undefined when unmarked. */
export const openForensicSecret = (signingKey: Buffer, videoId: string, stored: string | null) =>
  stored ? unwrapSecret(signingKey, videoId, 'forensic-secret', stored) : undefined;

/** A segment key as `video_keys.key` stores it. */
export const openSegmentKey = (signingKey: Buffer, videoId: string, stored: string) =>
  unwrapSecret(signingKey, videoId, 'segment-key', stored);

export const wrapSegmentKey = (signingKey: Buffer, videoId: string, key: Buffer) =>
  wrapSecret(signingKey, videoId, 'segment-key', key);

export const wrapForensicSecret = (signingKey: Buffer, videoId: string, secret: Buffer) =>
  wrapSecret(signingKey, videoId, 'forensic-secret', secret);

/** A value stored plain: hex, as Lectern wrote secrets before wrapping (anything else is left alone). */
const plainHex = (column: AnyPgColumn) => sql`${column} ~ '^([0-9a-fA-F]{2})+$'`;
const BATCH = 500;

/**
 * Wraps every secret still stored plain (rows written before wrapping, or restored from an older
 * backup). Each row changes only if it still holds the plain value it was read with, so racing
 * runs and a writer in between are harmless; running it again finds nothing. Answers the count.
 */
export async function wrapStoredSecrets(ctx: SecretContext): Promise<number> {
  let wrapped = 0;
  for (;;) {
    const keys = await ctx.db.select().from(videoKeys).where(plainHex(videoKeys.key)).limit(BATCH);
    const rows = await ctx.db
      .select({ id: videos.id, hlsKey: videos.hlsKey, forensicSecret: videos.forensicSecret })
      .from(videos)
      .where(or(plainHex(videos.hlsKey), plainHex(videos.forensicSecret)))
      .limit(BATCH);
    if (!keys.length && !rows.length) return wrapped;
    await ctx.db.transaction(async (tx) => {
      for (const k of keys) {
        const plain = openSegmentKey(ctx.signingKey, k.videoId, k.key);
        await tx
          .update(videoKeys)
          .set({ key: wrapSegmentKey(ctx.signingKey, k.videoId, plain) })
          .where(
            and(eq(videoKeys.videoId, k.videoId), eq(videoKeys.period, k.period), eq(videoKeys.key, k.key)),
          );
        wrapped++;
      }
      for (const row of rows) {
        for (const column of ['hlsKey', 'forensicSecret'] as const) {
          const stored = row[column];
          if (!stored || !/^(?:[0-9a-f]{2})+$/i.test(stored)) continue;
          const plain = unwrapSecret(ctx.signingKey, row.id, kindOf(column), stored);
          await tx
            .update(videos)
            .set({ [column]: wrapSecret(ctx.signingKey, row.id, kindOf(column), plain) })
            .where(and(eq(videos.id, row.id), eq(videos[column], stored)));
          wrapped++;
        }
      }
    });
  }
}

/** How many secrets are stored plain, and how many videos' wrapped keys do not open with this signing key (the doctor). */
export async function storedSecretsState(
  ctx: SecretContext,
): Promise<{ plain: number; videosUnreadable: number }> {
  const [counts] = (
    await ctx.db.execute<{ plain: number }>(
      sql`select ((select count(*) from ${videoKeys} where ${plainHex(videoKeys.key)})
                + (select count(*) from ${videos} where ${videos.hlsKey} is not null and ${plainHex(videos.hlsKey)})
                + (select count(*) from ${videos} where ${videos.forensicSecret} is not null and ${plainHex(videos.forensicSecret)}))::int as plain`,
    )
  ).rows;
  // One wrapped key per video is enough to tell: every secret of an install is wrapped under one key.
  const samples = await ctx.db
    .selectDistinctOn([videoKeys.videoId], { videoId: videoKeys.videoId, key: videoKeys.key })
    .from(videoKeys)
    .where(like(videoKeys.key, `${PREFIX}%`));
  let videosUnreadable = 0;
  for (const s of samples) {
    try {
      openSegmentKey(ctx.signingKey, s.videoId, s.key);
    } catch {
      videosUnreadable++;
    }
  }
  return { plain: Number(counts?.plain ?? 0), videosUnreadable };
}

/**
 * `media:rewrap-keys`: after SIGNING_KEY changed (on purpose, or a database copied to another
 * install), wraps the secrets that open with `oldKey` under the current signing key. `oldKey` is
 * given as a person has it: SIGNING_KEY's text or DATA_DIR/signing.key's hex; the reading that
 * opens the stored secrets is used. Answers how many were re-wrapped and how many open with neither.
 */
export async function rewrapStoredSecrets(
  ctx: SecretContext,
  oldKey: string,
): Promise<{ rewrapped: number; unreadable: number }> {
  const text = oldKey.trim();
  const candidates = [
    ...(/^(?:[0-9a-f]{2})+$/i.test(text) ? [Buffer.from(text, 'hex')] : []),
    Buffer.from(text, 'utf8'),
  ];
  const open = (
    videoId: string,
    kind: SecretKind,
    stored: string,
  ): { key: Buffer; plain: Buffer } | undefined => {
    for (const key of [ctx.signingKey, ...candidates]) {
      try {
        return { key, plain: unwrapSecret(key, videoId, kind, stored) };
      } catch {
        // the next candidate
      }
    }
    return undefined;
  };
  let rewrapped = 0;
  let unreadable = 0;
  const keys = await ctx.db
    .select()
    .from(videoKeys)
    .where(like(videoKeys.key, `${PREFIX}%`));
  const rows = await ctx.db
    .select({ id: videos.id, hlsKey: videos.hlsKey, forensicSecret: videos.forensicSecret })
    .from(videos)
    .where(or(like(videos.hlsKey, `${PREFIX}%`), like(videos.forensicSecret, `${PREFIX}%`)));
  for (const k of keys) {
    const opened = open(k.videoId, 'segment-key', k.key);
    if (!opened) unreadable++;
    if (!opened || opened.key === ctx.signingKey) continue;
    await ctx.db
      .update(videoKeys)
      .set({ key: wrapSegmentKey(ctx.signingKey, k.videoId, opened.plain) })
      .where(and(eq(videoKeys.videoId, k.videoId), eq(videoKeys.period, k.period), eq(videoKeys.key, k.key)));
    rewrapped++;
  }
  for (const row of rows) {
    for (const column of ['hlsKey', 'forensicSecret'] as const) {
      const stored = row[column];
      if (!stored || !isWrapped(stored)) continue;
      const opened = open(row.id, kindOf(column), stored);
      if (!opened) unreadable++;
      if (!opened || opened.key === ctx.signingKey) continue;
      await ctx.db
        .update(videos)
        .set({ [column]: wrapSecret(ctx.signingKey, row.id, kindOf(column), opened.plain) })
        .where(and(eq(videos.id, row.id), eq(videos[column], stored)));
      rewrapped++;
    }
  }
  return { rewrapped, unreadable };
}
