import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id setting: 19 MiB, 2 passes, 1 lane (about 15 ms a hash here). */
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** A hash of a random password, verified against when the account does not exist, so timing tells nothing. */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoyHash ??= hashPassword(generatePassword());
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '@$!%*?&';

/** A random 14-character password that satisfies the spec's password rule (for initial and admin passwords). */
export function generatePassword(length = 14): string {
  const pick = (set: string) => set[randomInt(set.length)]!;
  const all = LOWER + UPPER + DIGITS + SPECIAL;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SPECIAL)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
