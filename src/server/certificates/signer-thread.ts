import { Worker } from 'node:worker_threads';
import { bundledContexts } from './json-ld';

/**
 * Signing off the event loop: JSON-LD canonicalization costs about as much CPU as a hundred progress
 * saves, so credentials are signed in one worker thread, which imports the same npm packages (by
 * their resolved URLs: the server bundle leaves packages external) and the same bundled contexts.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = Promise.all(workerData.modules.map((url) => import(url)));
const contexts = new Map(workerData.contexts);
const documentLoader = async (url) => {
  const document = contexts.get(url);
  if (document === undefined) throw new Error('The document loader does not fetch ' + url + ': only bundled contexts.');
  return { contextUrl: null, documentUrl: url, document };
};
const keys = new Map();
parentPort.on('message', async ({ id, key, credential, created }) => {
  try {
    const [vc, integrity, suite, multikey] = await ready;
    let pair = keys.get(key.id);
    if (!pair) keys.set(key.id, (pair = await multikey.from(key)));
    const proof = new integrity.DataIntegrityProof({ signer: pair.signer(), cryptosuite: suite.cryptosuite, date: created });
    parentPort.postMessage({ id, signed: await vc.issue({ credential, suite: proof, documentLoader }) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

type Signed = Record<string, unknown> & { proof: Record<string, unknown> };
let thread: Worker | undefined;
let sequence = 0;
const waiting = new Map<number, { resolve(signed: Signed): void; reject(error: Error): void }>();

/** Whether this runtime can start the thread (test runners that rewrite modules lack import.meta.resolve). */
export const canSignInThread = () => typeof import.meta.resolve === 'function';

function started(): Worker {
  if (thread) return thread;
  const modules = [
    '@digitalbazaar/vc',
    '@digitalbazaar/data-integrity',
    '@digitalbazaar/eddsa-rdfc-2022-cryptosuite',
    '@digitalbazaar/ed25519-multikey',
  ].map((name) => import.meta.resolve(name));
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { modules, contexts: [...bundledContexts()] },
  });
  worker.unref();
  worker.on('message', ({ id, signed, error }: { id: number; signed?: Signed; error?: string }) => {
    const entry = waiting.get(id);
    waiting.delete(id);
    if (error !== undefined) entry?.reject(new Error(error));
    else entry?.resolve(signed!);
    if (waiting.size === 0) worker.unref();
  });
  worker.on('error', (error) => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
    thread = undefined;
  });
  thread = worker;
  return worker;
}

/** Signs `credential` in the signer thread with the Ed25519 multikey `key` (its public and secret parts). */
export function signInThread(
  key: Record<string, unknown>,
  credential: Record<string, unknown>,
  created?: string,
) {
  const worker = started();
  worker.ref();
  const id = ++sequence;
  return new Promise<Signed>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, key, credential, created });
  });
}
