import { createHash, randomBytes } from 'node:crypto';
import { documentLoader, OB_V3_CONTEXT, VC_V2_CONTEXT, type DocumentLoader } from './json-ld';
import type { IssuerKey } from './issuer-key';
import { canSignInThread, signInThread } from './signer-thread';

/** One loader for the process: bundled contexts and did:key only. */
const loader = documentLoader();

/**
 * The signing and verifying libraries, loaded at the first credential rather than at every start:
 * their JSON-LD stack is about 0.4 CPU-seconds of module loading, for a server or a CLI run that
 * may never sign anything.
 */
async function linkedDataProofs() {
  const [vc, { DataIntegrityProof }, { cryptosuite }] = await Promise.all([
    import('@digitalbazaar/vc'),
    import('@digitalbazaar/data-integrity'),
    import('@digitalbazaar/eddsa-rdfc-2022-cryptosuite'),
  ]);
  return { vc, DataIntegrityProof, cryptosuite };
}

/** What a certificate credential states. */
export interface CredentialFacts {
  certificateId: string;
  email: string;
  courseId: string;
  course: string;
  batch: number;
  issuedAt: Date;
  statusListUrl: string;
  statusIndex: number;
}

export interface Issuer {
  key: IssuerKey;
  /** The school's name and address, as its profile in each credential. */
  name: string;
  url: string;
}

/** Seconds, as the VC data model's dateTimeStamp examples write them. */
export const isoSeconds = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The OB 3.0 identity of the holder: the SHA-256 of their e-mail (lower-cased) and a random salt,
 * so the credential names no one, and whoever knows the e-mail can check it is theirs.
 */
export function emailIdentity(email: string, salt = randomBytes(16).toString('hex')) {
  const hash = createHash('sha256')
    .update(email.trim().toLowerCase() + salt)
    .digest('hex');
  return {
    type: 'IdentityObject',
    identityHash: `sha256$${hash}`,
    identityType: 'emailAddress',
    hashed: true,
    salt,
  };
}

/** The unsigned Open Badges 3.0 `OpenBadgeCredential` (VC 2.0) of a completed course. */
export function certificateCredential(issuer: Issuer, facts: CredentialFacts): Record<string, unknown> {
  return {
    '@context': [VC_V2_CONTEXT, OB_V3_CONTEXT],
    id: `urn:uuid:${facts.certificateId}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: `${facts.course} (batch ${facts.batch}): certificate of completion`,
    issuer: { id: issuer.key.did, type: ['Profile'], name: issuer.name, url: issuer.url },
    validFrom: isoSeconds(facts.issuedAt),
    credentialSubject: {
      type: ['AchievementSubject'],
      identifier: [emailIdentity(facts.email)],
      achievement: {
        id: `${issuer.url}/courses/${facts.courseId}`,
        type: ['Achievement'],
        achievementType: 'Certificate',
        name: facts.course,
        description: `Completed the course ${facts.course}, batch ${facts.batch}.`,
        criteria: {
          narrative:
            'Watched at least 90% of every lecture of the course and passed its required checkpoints, as the school’s server recorded.',
        },
      },
    },
    credentialStatus: {
      id: `${facts.statusListUrl}#${facts.statusIndex}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(facts.statusIndex),
      statusListCredential: facts.statusListUrl,
    },
  };
}

/** Signs `credential` with an `eddsa-rdfc-2022` Data Integrity proof by `key`. */
export async function signCredential(
  key: Pick<IssuerKey, 'keyPair'>,
  credential: Record<string, unknown>,
  options: {
    created?: Date | string;
    loader?: DocumentLoader;
    /** Sign in the signer thread with this key (off the event loop), where the runtime allows. */
    thread?: IssuerKey;
  } = {},
): Promise<Record<string, unknown> & { proof: Record<string, unknown> }> {
  const created = options.created instanceof Date ? isoSeconds(options.created) : options.created;
  if (options.thread && canSignInThread()) {
    const key = await options.thread.keyPair.export({
      publicKey: true,
      secretKey: true,
      includeContext: false,
    });
    return signInThread(
      { ...key, id: options.thread.verificationMethod, controller: options.thread.did },
      credential,
      created,
    );
  }
  const { vc, DataIntegrityProof, cryptosuite } = await linkedDataProofs();
  const suite = new DataIntegrityProof({ signer: key.keyPair.signer(), cryptosuite, date: created });
  return vc.issue({
    credential: structuredClone(credential),
    suite,
    documentLoader: options.loader ?? loader,
  });
}

/** Whether the proof of `credential` verifies (signature only: its status is the status list's). */
export async function verifyProof(credential: Record<string, unknown>): Promise<boolean> {
  const { vc, DataIntegrityProof, cryptosuite } = await linkedDataProofs();
  const suite = new DataIntegrityProof({ cryptosuite });
  // The status is the status list's to say (routes read it from the database); here only the proof.
  const checkStatus = async () => ({ verified: true });
  const result = await vc.verifyCredential({ credential, suite, documentLoader: loader, checkStatus });
  return result.verified;
}
