import { describe, expect, it } from 'vitest';
import { playbackTokens } from './tokens';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const tokens = playbackTokens(Buffer.alloc(32, 7));
const session = 'session-cookie-1';
const now = Date.UTC(2026, 10, 22);
const FILE = 'v720/seg_00003.ts';

describe('segment link tokens', () => {
  it('verifies what it signed, for that video, file and session only, until it expires', () => {
    const token = tokens.sign('video-1', FILE, session, now);
    expect(tokens.verify('video-1', FILE, token, session, now)).toBe(true);
    expect(tokens.verify('video-2', FILE, token, session, now)).toBe(false);
    expect(tokens.verify('video-1', 'v720/seg_00004.ts', token, session, now)).toBe(false);
    expect(tokens.verify('video-1', 'v480/seg_00003.ts', token, session, now)).toBe(false);
    expect(tokens.verify('video-1', FILE, token, 'session-cookie-2', now)).toBe(false);
    expect(tokens.verify('video-1', FILE, token, undefined, now)).toBe(false);
    expect(tokens.verify('video-1', FILE, token, session, now + 7 * 3600_000)).toBe(false);
  });

  it('signs a playlist’s many links as it signs one', () => {
    const sign = tokens.signer('video-1', session, now);
    expect(sign(FILE)).toBe(tokens.sign('video-1', FILE, session, now));
    expect(tokens.verify('video-1', 'v720/seg_00004.ts', sign('v720/seg_00004.ts'), session, now)).toBe(true);
  });

  it("refuses the other forensic variant's name under a link made for one", () => {
    const a = 'v720/f_0123456789abcdef0123456789abcdef.ts';
    const b = 'v720/f_fedcba9876543210fedcba9876543210.ts';
    expect(tokens.verify('video-1', b, tokens.sign('video-1', a, session, now), session, now)).toBe(false);
  });

  it('refuses every other spelling of the MAC, even one that decodes to the same bytes', () => {
    const token = tokens.sign('video-1', FILE, session, now);
    const last = ALPHABET.indexOf(token.at(-1)!);
    // 16 bytes in base64url end in a character carrying 2 bits: these 15 others decode alike.
    const sameBits = [...ALPHABET].filter((c, i) => i >> 4 === last >> 4 && i !== last);
    expect(sameBits).toHaveLength(15);
    for (const c of sameBits) {
      const respelled = token.slice(0, -1) + c;
      expect(Buffer.from(respelled.split('.')[1]!, 'base64url')).toEqual(
        Buffer.from(token.split('.')[1]!, 'base64url'),
      );
      expect(tokens.verify('video-1', FILE, respelled, session, now)).toBe(false);
    }
  });
});
