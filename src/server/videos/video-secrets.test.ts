import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isWrapped, unwrapSecret, VideoSecretError, wrapSecret } from './video-secrets';

const SIGNING_KEY = Buffer.from('a signing key of at least thirty-two bytes!!');
const VIDEO = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

describe('video secrets wrapped at rest', () => {
  const key = randomBytes(16);
  const wrapped = wrapSecret(SIGNING_KEY, VIDEO, 'segment-key', key);

  it('wraps: a versioned text that is not the key, different each time, and opens to the key', () => {
    expect(wrapped).toMatch(/^w1\.[A-Za-z0-9_-]+$/);
    expect(isWrapped(wrapped)).toBe(true);
    expect(wrapped).not.toContain(key.toString('hex'));
    expect(wrapped).not.toContain(key.toString('base64url'));
    expect(wrapSecret(SIGNING_KEY, VIDEO, 'segment-key', key)).not.toBe(wrapped);
    expect(unwrapSecret(SIGNING_KEY, VIDEO, 'segment-key', wrapped).equals(key)).toBe(true);
  });

  it('refuses another video, another kind of secret and another signing key', () => {
    expect(() => unwrapSecret(SIGNING_KEY, OTHER, 'segment-key', wrapped)).toThrow(VideoSecretError);
    expect(() => unwrapSecret(SIGNING_KEY, VIDEO, 'forensic-secret', wrapped)).toThrow(VideoSecretError);
    const otherKey = Buffer.from('another signing key, also thirty-two bytes long');
    expect(() => unwrapSecret(otherKey, VIDEO, 'segment-key', wrapped)).toThrow(
      /does not open with this signing key/,
    );
  });

  it('refuses every changed byte, a cut value and garbage', () => {
    const bytes = Buffer.from(wrapped.slice(3), 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const tampered = Buffer.from(bytes);
      tampered[i]! ^= 0x01;
      expect(() =>
        unwrapSecret(SIGNING_KEY, VIDEO, 'segment-key', `w1.${tampered.toString('base64url')}`),
      ).toThrow(VideoSecretError);
    }
    expect(() => unwrapSecret(SIGNING_KEY, VIDEO, 'segment-key', wrapped.slice(0, 30))).toThrow(
      VideoSecretError,
    );
    expect(() => unwrapSecret(SIGNING_KEY, VIDEO, 'segment-key', 'w1.')).toThrow(VideoSecretError);
    expect(() => unwrapSecret(SIGNING_KEY, VIDEO, 'segment-key', 'not hex')).toThrow(VideoSecretError);
  });

  it('still reads a key stored plain (hex) before wrapping', () => {
    expect(isWrapped(key.toString('hex'))).toBe(false);
    expect(unwrapSecret(SIGNING_KEY, VIDEO, 'segment-key', key.toString('hex')).equals(key)).toBe(true);
  });
});
