import { describe, expect, it } from 'vitest';
import { playbackTokens } from './tokens';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const tokens = playbackTokens(Buffer.alloc(32, 7));
const session = 'session-cookie-1';
const now = Date.UTC(2026, 10, 22);

describe('segment link tokens', () => {
  it('verifies what it signed, for that video and session only, until it expires', () => {
    const token = tokens.sign('video-1', session, now);
    expect(tokens.verify('video-1', token, session, now)).toBe(true);
    expect(tokens.verify('video-2', token, session, now)).toBe(false);
    expect(tokens.verify('video-1', token, 'session-cookie-2', now)).toBe(false);
    expect(tokens.verify('video-1', token, undefined, now)).toBe(false);
    expect(tokens.verify('video-1', token, session, now + 7 * 3600_000)).toBe(false);
  });

  it('refuses every other spelling of the MAC, even one that decodes to the same bytes', () => {
    const token = tokens.sign('video-1', session, now);
    const last = ALPHABET.indexOf(token.at(-1)!);
    // 16 bytes in base64url end in a character carrying 2 bits: these 15 others decode alike.
    const sameBits = [...ALPHABET].filter((c, i) => i >> 4 === last >> 4 && i !== last);
    expect(sameBits).toHaveLength(15);
    for (const c of sameBits) {
      const respelled = token.slice(0, -1) + c;
      expect(Buffer.from(respelled.split('.')[1]!, 'base64url')).toEqual(
        Buffer.from(token.split('.')[1]!, 'base64url'),
      );
      expect(tokens.verify('video-1', respelled, session, now)).toBe(false);
    }
  });
});
