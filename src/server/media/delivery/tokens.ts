import { createHash, createHmac } from 'node:crypto';
import { safeEqual } from '../../accounts/tokens';

/**
 * How long the links of a playlist work. Revocation does not wait for them: the keys (checked on
 * every request) carry the access, so a link only ever yields ciphertext to its own session.
 */
export const LINK_SECONDS = 6 * 3600;

/** Derives a per-purpose secret from the signing key, so one leaked purpose does not give the others. */
export const purposeKey = (signingKey: Buffer, purpose: string) =>
  createHmac('sha256', signingKey).update(purpose).digest();

/**
 * Signs and checks Lectern's own links to a video's files (child playlists and segments):
 * `<expiry base36>.<mac>`, the MAC (HMAC-SHA256, 128 bits) binding video, the file the link names
 * (`v720/seg_00003.ts`, `v720/index.m3u8`), expiry and the session cookie the links were made for.
 * Naming the file keeps a session to its own files: another rendition's or the other forensic
 * variant's name in your link is refused. Checking one is pure computation (no database), which
 * is what lets a segment request skip everything else.
 */
export function playbackTokens(signingKey: Buffer) {
  const key = purposeKey(signingKey, 'lectern segment link v3');
  const digest = (session: string) => createHash('sha256').update(session).digest();
  const macOf = (videoId: string, file: string, sessionDigest: Buffer, expiry: string) =>
    createHmac('sha256', key)
      .update(`${videoId}:${file}:${expiry}:`)
      .update(sessionDigest)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  const mac = (videoId: string, file: string, session: string, expiry: string) =>
    macOf(videoId, file, digest(session), expiry);

  return {
    /** A link token for `file` (rendition/name) of `videoId`, for this session. */
    sign(videoId: string, file: string, session: string, nowMs: number): string {
      const expiry = Math.floor(nowMs / 1000 + LINK_SECONDS).toString(36);
      return `${expiry}.${mac(videoId, file, session, expiry)}`;
    },

    /** The same tokens for many files of one video and session (a playlist): the session hashed once. */
    signer(videoId: string, session: string, nowMs: number): (file: string) => string {
      const expiry = Math.floor(nowMs / 1000 + LINK_SECONDS).toString(36);
      const sessionDigest = digest(session);
      return (file) => `${expiry}.${macOf(videoId, file, sessionDigest, expiry)}`;
    },

    /** Whether `token` was made for `file` of `videoId` and this `session` cookie, and has not expired. */
    verify(
      videoId: string,
      file: string,
      token: unknown,
      session: string | undefined,
      nowMs: number,
    ): boolean {
      if (typeof token !== 'string' || token.length > 60 || !session) return false;
      const [expiry, given, extra] = token.split('.');
      if (!expiry || !given || extra !== undefined) return false;
      // Compared as text: decoding would accept other spellings of the same bits.
      if (!safeEqual(given, mac(videoId, file, session, expiry))) return false;
      return parseInt(expiry, 36) * 1000 > nowMs;
    },
  };
}

export type PlaybackTokens = ReturnType<typeof playbackTokens>;
