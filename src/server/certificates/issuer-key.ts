import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { desc, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../context';
import { issuerKeys } from '../db/schema';
import { didKeyOf, verificationMethodOf } from './json-ld';

type KeyContext = Pick<AppContext, 'db' | 'config' | 'signingKey' | 'clock'>;

/** The school's signing key for credentials, as the signer uses it. */
export interface IssuerKey {
  did: string;
  verificationMethod: string;
  keyPair: Ed25519Multikey.Ed25519KeyPair;
}

interface KeyFile {
  publicKeyMultibase: string;
  secretKeyMultibase: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const fileOf = (dataDir: string) => path.join(dataDir, 'issuer.key');

function sealKeyOf(signingKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', signingKey, Buffer.alloc(0), 'lectern issuer key seal v1', 32));
}

/** The secret as the database keeps it: AES-256-GCM under a key derived from SIGNING_KEY, bound to its did. */
function seal(signingKey: Buffer, did: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealKeyOf(signingKey), iv);
  cipher.setAAD(Buffer.from(did));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function unseal(signingKey: Buffer, did: string, sealed: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealKeyOf(signingKey), bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(did));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

function readKeyFile(dataDir: string): KeyFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(fileOf(dataDir), 'utf8')) as KeyFile;
    if (typeof parsed.publicKeyMultibase === 'string' && typeof parsed.secretKeyMultibase === 'string')
      return parsed;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`DATA_DIR/issuer.key does not hold a key: ${(error as Error).message}`, { cause: error });
  }
  throw new Error('DATA_DIR/issuer.key does not hold a key.');
}

/** Written beside and renamed over: a crash never leaves half a key. */
function writeKeyFile(dataDir: string, key: KeyFile): void {
  mkdirSync(dataDir, { recursive: true });
  const temp = `${fileOf(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(key), { mode: 0o600 });
  renameSync(temp, fileOf(dataDir));
}

/** Loaded at the first key rather than at every start, as the signing libraries are (credential.ts). */
const multikeys = () => import('@digitalbazaar/ed25519-multikey');

async function asIssuerKey(file: KeyFile): Promise<IssuerKey> {
  const did = didKeyOf(file.publicKeyMultibase);
  const verificationMethod = verificationMethodOf(file.publicKeyMultibase);
  const keyPair = await (
    await multikeys()
  ).from({
    ...file,
    type: 'Multikey',
    id: verificationMethod,
    controller: did,
  });
  return { did, verificationMethod, keyPair };
}

async function generated(): Promise<KeyFile> {
  const pair = await (await multikeys()).generate();
  return { publicKeyMultibase: pair.publicKeyMultibase, secretKeyMultibase: pair.secretKeyMultibase! };
}

/** Records `file` as the active key in the database (its sealed copy for backups); retires the others. */
async function recordActive(ctx: KeyContext, file: KeyFile): Promise<void> {
  const did = didKeyOf(file.publicKeyMultibase);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(issuerKeys)
      .values({
        did,
        publicKeyMultibase: file.publicKeyMultibase,
        sealedSecret: seal(ctx.signingKey, did, file.secretKeyMultibase),
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: issuerKeys.did,
        set: { retiredAt: null, sealedSecret: seal(ctx.signingKey, did, file.secretKeyMultibase) },
      });
    const active = await tx
      .select({ did: issuerKeys.did })
      .from(issuerKeys)
      .where(isNull(issuerKeys.retiredAt));
    for (const other of active)
      if (other.did !== did)
        await tx.update(issuerKeys).set({ retiredAt: now }).where(eq(issuerKeys.did, other.did));
  });
}

const loaded = new WeakMap<object, Promise<IssuerKey>>();

/**
 * The school's active issuer key: DATA_DIR/issuer.key; after a restore onto an empty DATA_DIR, the
 * active key of the database (unsealed with SIGNING_KEY) written back there; on a first use, a new
 * Ed25519 key. Loaded once per context.
 */
export function issuerKey(ctx: KeyContext): Promise<IssuerKey> {
  let key = loaded.get(ctx);
  if (!key) {
    key = loadIssuerKey(ctx);
    loaded.set(ctx, key);
    key.catch(() => loaded.delete(ctx));
  }
  return key;
}

async function loadIssuerKey(ctx: KeyContext): Promise<IssuerKey> {
  const dataDir = ctx.config.dataDir;
  let file = readKeyFile(dataDir);
  if (!file) {
    const [active] = await ctx.db
      .select()
      .from(issuerKeys)
      .where(isNull(issuerKeys.retiredAt))
      .orderBy(desc(issuerKeys.createdAt))
      .limit(1);
    file = active?.sealedSecret
      ? {
          publicKeyMultibase: active.publicKeyMultibase,
          secretKeyMultibase: unseal(ctx.signingKey, active.did, active.sealedSecret),
        }
      : await generated();
    writeKeyFile(dataDir, file);
  }
  await recordActive(ctx, file);
  return asIssuerKey(file);
}

/**
 * A new issuer key: new certificates and status lists are signed with it; the old key's did:key
 * stays in the database (retired), and certificates it signed still verify (did:key is the key).
 */
export async function rotateIssuerKey(ctx: KeyContext): Promise<IssuerKey> {
  const file = await generated();
  writeKeyFile(ctx.config.dataDir, file);
  await recordActive(ctx, file);
  const key = asIssuerKey(file);
  loaded.set(ctx, key);
  return key;
}

/**
 * The issuer key named by `did`: the active one, or a retired one unsealed from the database (a
 * status list keeps being signed by the key of its certificates). Undefined when the database holds
 * no secret for it (a backup restored without BACKUP_PASSPHRASE).
 */
export async function issuerKeyByDid(ctx: KeyContext, did: string): Promise<IssuerKey | undefined> {
  const active = await issuerKey(ctx);
  if (active.did === did) return active;
  const [row] = await ctx.db.select().from(issuerKeys).where(eq(issuerKeys.did, did));
  if (!row?.sealedSecret) return undefined;
  return asIssuerKey({
    publicKeyMultibase: row.publicKeyMultibase,
    secretKeyMultibase: unseal(ctx.signingKey, row.did, row.sealedSecret),
  });
}

/** Every issuer key the school has used, newest first (public parts only). */
export function issuerKeyHistory(ctx: Pick<AppContext, 'db'>) {
  return ctx.db
    .select({ did: issuerKeys.did, createdAt: issuerKeys.createdAt, retiredAt: issuerKeys.retiredAt })
    .from(issuerKeys)
    .orderBy(desc(issuerKeys.createdAt));
}
