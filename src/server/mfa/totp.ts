import { generateSecret, generateURI, verifySync } from 'otplib';
import { TOTP_DIGITS } from '../../contract/constants';

/** RFC 6238 as authenticator apps expect it: SHA-1, 30 s steps, 6 digits. */
const PERIOD = 30;

/** A new secret: 160 random bits in base32 (RFC 4226's recommended length). */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// URI a QR code carries: issuer (the product name) and the admin's username. */
export function totpUri(issuer: string, account: string, secret: string): string {
  return generateURI({ issuer, label: account, secret, digits: TOTP_DIGITS, period: PERIOD });
}

/**
 * The 30 s step `code` is right for at `now`, allowing one step either side for a phone's clock, or
 * null. The caller makes sure a step is taken once (factors.ts `takeStep`).
 */
export function matchTotp(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  const result = verifySync({
    secret,
    token: code,
    epoch,
    epochTolerance: PERIOD,
    period: PERIOD,
    digits: TOTP_DIGITS,
  });
  return result.valid ? Math.floor(epoch / PERIOD) + result.delta : null;
}
