import { createHmac } from 'node:crypto';
import { safeEqual } from '../../accounts/tokens';
import type { Role } from '../../db/schema';

/** How long a playlist's links work; access itself is re-checked at least every minute meanwhile. */
export const PLAYBACK_TOKEN_SECONDS = 6 * 3600;

export interface PlaybackGrant {
  userId: string;
  role: Role;
}

/**
 * Signs and checks playback tokens: `<userId>.<a|s>.<expiry base36>.<mac>`, the MAC (HMAC-SHA256,
 * 128 bits) binding video, user, role and expiry. A per-purpose key is derived from the signing key.
 */
export function playbackTokens(signingKey: Buffer) {
  const key = createHmac('sha256', signingKey).update('lectern playback token v1').digest();
  const mac = (videoId: string, userId: string, role: string, expiry: string) =>
    createHmac('sha256', key).update(`${videoId}:${userId}:${role}:${expiry}`).digest().subarray(0, 16);

  return {
    sign(videoId: string, grant: PlaybackGrant, nowMs: number): string {
      const role = grant.role === 'admin' ? 'a' : 's';
      const expiry = Math.floor(nowMs / 1000 + PLAYBACK_TOKEN_SECONDS).toString(36);
      return `${grant.userId}.${role}.${expiry}.${mac(videoId, grant.userId, role, expiry).toString('base64url')}`;
    },

    /** The grant a token carries for `videoId`, or undefined when it is malformed, forged or expired. */
    verify(videoId: string, token: unknown, nowMs: number): PlaybackGrant | undefined {
      if (typeof token !== 'string' || token.length > 120) return undefined;
      const [userId, role, expiry, given, extra] = token.split('.');
      if (!userId || !expiry || !given || extra !== undefined || (role !== 'a' && role !== 's'))
        return undefined;
      // Compared as text: decoding would accept other spellings of the same bits (the last character
      // of 16 bytes in base64url carries 2 bits), so a changed token could still pass.
      if (!safeEqual(given, mac(videoId, userId, role, expiry).toString('base64url'))) return undefined;
      if (parseInt(expiry, 36) * 1000 <= nowMs) return undefined;
      return { userId, role: role === 'a' ? 'admin' : 'student' };
    },
  };
}

export type PlaybackTokens = ReturnType<typeof playbackTokens>;
