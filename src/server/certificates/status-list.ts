import { randomInt } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { VC_V2_CONTEXT } from './json-ld';
import { isoSeconds, type Issuer } from './credential';

/** The specification's minimum: 16 KiB of bits, so one revoked index hides among many. */
export const STATUS_LIST_BITS = 131_072;

/** An index drawn at random from `size`, tried until `used` says no: where in the list says nothing of when. */
export async function randomFreeIndex(
  size: number,
  used: (index: number) => Promise<boolean>,
  draw: (size: number) => number = randomInt,
): Promise<number> {
  for (;;) {
    const index = draw(size);
    if (!(await used(index))) return index;
  }
}

/** The list's bits, index 0 the first byte's high bit, GZIP'd, as multibase base64url (`u…`). */
export function encodeStatusList(size: number, revoked: Iterable<number>): string {
  const bits = Buffer.alloc(Math.ceil(size / 8));
  for (const index of revoked) {
    if (index < 0 || index >= size) continue;
    bits[index >> 3]! |= 0x80 >> (index & 7);
  }
  return `u${gzipSync(bits).toString('base64url')}`;
}

/** The unsigned `BitstringStatusListCredential` of one list. */
export function statusListCredential(
  issuer: Issuer,
  list: { url: string; size: number; revoked: Iterable<number>; validFrom: Date },
): Record<string, unknown> {
  return {
    '@context': [VC_V2_CONTEXT],
    id: list.url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: issuer.key.did,
    validFrom: isoSeconds(list.validFrom),
    credentialSubject: {
      id: `${list.url}#list`,
      type: 'BitstringStatusList',
      statusPurpose: 'revocation',
      encodedList: encodeStatusList(list.size, list.revoked),
    },
  };
}
