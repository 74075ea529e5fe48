import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random session token, URL-safe. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Sessions are looked up by the SHA-256 of their token, so a database leak yields no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function hmac(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
