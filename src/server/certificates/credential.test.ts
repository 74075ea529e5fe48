import { readFileSync } from 'node:fs';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { describe, expect, it } from 'vitest';
import { certificateCredential, emailIdentity, signCredential, verifyProof } from './credential';
import { didKeyOf, documentLoader, verificationMethodOf } from './json-ld';
import { encodeStatusList } from './status-list';
import { gunzipSync } from 'node:zlib';

const vector = JSON.parse(
  readFileSync(new URL('./__fixtures__/vc-di-eddsa-rdfc-2022.json', import.meta.url), 'utf8'),
) as {
  keyPair: { publicKeyMultibase: string; secretKeyMultibase: string };
  examplesContext: { url: string; document: unknown };
  unsigned: Record<string, unknown>;
  proofOptions: { created: string; verificationMethod: string };
  proofValue: string;
};

describe('the certificate signer', () => {
  it('reproduces the W3C vc-di-eddsa test vector for eddsa-rdfc-2022 byte for byte', async () => {
    const keyPair = await Ed25519Multikey.from({
      ...vector.keyPair,
      id: vector.proofOptions.verificationMethod,
      controller: 'https://vc.example/issuers/5678',
    });
    const loader = documentLoader(new Map([[vector.examplesContext.url, vector.examplesContext.document]]));
    const signed = await signCredential({ keyPair }, vector.unsigned, {
      created: vector.proofOptions.created,
      loader,
    });
    expect(signed.proof).toEqual({
      type: 'DataIntegrityProof',
      cryptosuite: 'eddsa-rdfc-2022',
      created: vector.proofOptions.created,
      verificationMethod: vector.proofOptions.verificationMethod,
      proofPurpose: 'assertionMethod',
      proofValue: vector.proofValue,
    });
  });

  it('signs an OpenBadgeCredential that verifies, and fails once a field is edited', async () => {
    const pair = await Ed25519Multikey.generate();
    const keyPair = await Ed25519Multikey.from({
      publicKeyMultibase: pair.publicKeyMultibase,
      secretKeyMultibase: pair.secretKeyMultibase,
      id: verificationMethodOf(pair.publicKeyMultibase),
      controller: didKeyOf(pair.publicKeyMultibase),
    });
    const key = { keyPair, did: didKeyOf(pair.publicKeyMultibase), verificationMethod: keyPair.id! };
    const unsigned = certificateCredential(
      { key, name: 'Lectern', url: 'https://school.example' },
      {
        certificateId: '6a0f6c1e-0000-4000-8000-000000000001',
        email: 'Asha@Example.test',
        courseId: '6a0f6c1e-0000-4000-8000-000000000002',
        course: 'Rust from zero',
        batch: 7,
        issuedAt: new Date('2026-03-02T08:00:00.123Z'),
        statusListUrl: 'https://school.example/credentials/status/1',
        statusIndex: 5,
      },
    );
    const signed = await signCredential(key, unsigned);
    expect(signed.proof).toMatchObject({
      cryptosuite: 'eddsa-rdfc-2022',
      verificationMethod: key.verificationMethod,
    });
    expect(await verifyProof(signed)).toBe(true);
    const edited = structuredClone(signed) as unknown as {
      credentialSubject: { achievement: { name: string } };
    };
    edited.credentialSubject.achievement.name = 'Rust, mastered';
    expect(await verifyProof(edited as never)).toBe(false);
    // The holder is a salted hash of their e-mail, whatever its case: the credential names no one.
    expect(JSON.stringify(signed)).not.toMatch(/asha/i);
    const [identity] = (signed.credentialSubject as { identifier: { salt: string; identityHash: string }[] })
      .identifier;
    expect(emailIdentity('asha@example.test', identity!.salt).identityHash).toBe(identity!.identityHash);
  });

  it('refuses to fetch any context it does not bundle', async () => {
    await expect(documentLoader()('https://example.com/context.json')).rejects.toThrow(/does not fetch/);
  });

  it('encodes a status list with index 0 as the first byte’s high bit', () => {
    const bits = gunzipSync(Buffer.from(encodeStatusList(16, [0, 9]).slice(1), 'base64url'));
    expect([...bits]).toEqual([0x80, 0x40]);
  });
});
