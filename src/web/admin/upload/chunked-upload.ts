import { UPLOAD_CHUNK_SIZE } from '../../../contract/constants';
import { mediaMessages, type FinalizeUploadResponse } from '../../../contract/media';
import { ApiError, call } from '../../api/client';

/**
 * The streamer's resumable upload (ARCHITECTURE.md "Media pipeline"): 5 MB chunks to
 * POST /stream/upload-chunk, then POST /stream/upload to finalize. After a network error or a
 * server hiccup it waits (exponential backoff), asks the server how many bytes it really has
 * (GET /stream/upload-status, or the offset of a 409) and carries on from there, so a lost
 * response never sends a byte twice and a lost request never leaves a hole.
 */

export type UploadPhase = 'uploading' | 'retrying' | 'finalizing';

export interface UploadProgress {
  phase: UploadPhase;
  /** Bytes the server has confirmed. */
  sent: number;
  total: number;
  /** While `retrying`: which consecutive attempt comes next and after how long. */
  retry?: { attempt: number; maxAttempts: number; delayMs: number };
  /** While `retrying`: the server's reason, when it gave one (e.g. the media storage is away). */
  message?: string;
}

export interface ChunkedUploadOptions {
  file: Blob;
  /** The upload's label on the server (see `uploadNameFor`); also the video's first title. */
  fileName: string;
  chunkSize?: number;
  signal?: AbortSignal;
  onProgress?(progress: UploadProgress): void;
  /** Consecutive failures tolerated before giving up; any confirmed chunk resets the count. */
  maxRetries?: number;
  /** Wait before retry number `attempt` (1-based). */
  backoff?(attempt: number): number;
  /** How to wait (tests pass a fake); must reject when `signal` aborts. */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
  /** Send each chunk's SHA-256 so the server refuses a corrupted one (when Web Crypto is there). */
  checksum?: boolean;
}

/** A failure the upload could not get past; `message` is the server's when it gave one. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/** One request's outcome: network trouble is status 0. */
class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly offset?: number,
  ) {
    super(message);
  }
}

export const DEFAULT_MAX_RETRIES = 8;

/** 1 s, 2 s, 4 s … capped at 30 s, with ±20 % jitter so many clients do not retry in step. */
export function defaultBackoff(attempt: number): number {
  const base = Math.min(30_000, 1_000 * 2 ** (attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether waiting and asking again can help: network trouble, time-outs, a busy lock, rate limits, server errors. */
function isTransient(failure: HttpFailure): boolean {
  if (failure.status === 0 || failure.status >= 500) return true;
  if ([408, 423, 425, 429].includes(failure.status)) return true;
  // A chunk damaged on the way: the server dropped it, sending it again is the fix.
  return failure.status === 400 && failure.message === mediaMessages.checksumMismatch;
}

/** A call's failure as the upload handles it: the status, the server's message and a 409's offset. */
async function lift<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const offset = typeof error.body.offset === 'number' ? error.body.offset : undefined;
    throw new HttpFailure(error.status, error.message, offset);
  }
}

/** A blob's bytes (FileReader where `Blob.arrayBuffer` is missing, as in jsdom). */
function bytesOf(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

async function digestOf(chunk: Blob): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined; // plain-HTTP origins have no Web Crypto: the server then trusts TCP
  const hash = new Uint8Array(await subtle.digest('SHA-256', new Uint8Array(await bytesOf(chunk))));
  let binary = '';
  for (const byte of hash) binary += String.fromCharCode(byte);
  return `sha256=${btoa(binary)}`;
}

/** The `filename` header: ASCII as it is, anything else percent-encoded (the server decodes it). */
function filenameHeader(name: string): string {
  return /^[\x20-\x7e]*$/.test(name) && !name.includes('%') ? name : encodeURIComponent(name);
}

/**
 * A label the streamer accepts for `name`: no "..", slashes or control characters, trimmed, at most
 * 200 bytes with the extension kept.
 */
export function uploadNameFor(name: string): string {
  let clean = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
    .replace(/\.{2,}/g, '.')
    .trim();
  const ext = /\.[A-Za-z0-9]{1,5}$/.exec(clean)?.[0] ?? '';
  const encoder = new TextEncoder();
  while (encoder.encode(clean).length > 200) clean = clean.slice(0, clean.length - ext.length - 1) + ext;
  return clean.trim() || 'video.mp4';
}

/** Uploads `file` in chunks, resuming after transient failures, then finalizes it; answers the streamer's URLs. */
export async function uploadInChunks(options: ChunkedUploadOptions): Promise<FinalizeUploadResponse> {
  const {
    file,
    fileName,
    chunkSize = UPLOAD_CHUNK_SIZE,
    signal,
    onProgress = () => {},
    maxRetries = DEFAULT_MAX_RETRIES,
    backoff = defaultBackoff,
    sleep: wait = sleep,
    checksum = true,
  } = options;
  const total = file.size;
  let failures = 0;

  /** After a transient failure: wait, then learn the server's offset (null when that failed too). */
  const recover = async (failure: HttpFailure, sent: number): Promise<number | null> => {
    failures++;
    if (failures > maxRetries) {
      throw new UploadError(failure.message || 'The connection to the server was lost.', failure.status);
    }
    const delayMs = backoff(failures);
    onProgress({
      phase: 'retrying',
      sent,
      total,
      retry: { attempt: failures, maxAttempts: maxRetries, delayMs },
      ...(failure.message ? { message: failure.message } : {}),
    });
    await wait(delayMs, signal);
    try {
      const { offset } = await lift(call('GET /stream/upload-status', { query: { fileName }, signal }));
      return offset;
    } catch (error) {
      if (error instanceof HttpFailure && isTransient(error)) return null;
      throw error;
    }
  };

  const fail = (error: unknown): never => {
    if (signal?.aborted) throw abortError();
    if (error instanceof HttpFailure) throw new UploadError(error.message, error.status);
    throw error;
  };

  let offset = 0;
  try {
    onProgress({ phase: 'uploading', sent: 0, total });
    while (offset < total) {
      if (signal?.aborted) throw abortError();
      const piece = file.slice(offset, Math.min(offset + chunkSize, total));
      const form = new FormData();
      // Fields before the file, its size among them, so the server can stream the part straight
      // to its store (a bucket needs a part's length up front).
      form.set('fileName', fileName);
      form.set('start', String(offset));
      form.set('size', String(piece.size));
      const sum = checksum ? await digestOf(piece) : undefined;
      if (sum) form.set('checksum', sum);
      form.set('file', piece, 'chunk');
      try {
        const answer = await lift(call('POST /stream/upload-chunk', { form, signal }));
        offset = answer.offset;
        failures = 0;
        onProgress({ phase: 'uploading', sent: offset, total });
      } catch (error) {
        if (!(error instanceof HttpFailure)) throw error;
        if (error.status === 409 && error.offset !== undefined) {
          // The server has a different count (a response we never saw): continue from its offset.
          failures++;
          if (failures > maxRetries) throw new UploadError(error.message, error.status);
          offset = error.offset;
          continue;
        }
        if (!isTransient(error)) throw error;
        const known = await recover(error, offset);
        if (known !== null) offset = known;
        if (offset > total) offset = 0; // not this file's bytes: begin again (start 0 restarts)
      }
    }

    onProgress({ phase: 'finalizing', sent: total, total });
    for (;;) {
      try {
        return await lift(
          call('POST /stream/upload', { headers: { filename: filenameHeader(fileName) }, signal }),
        );
      } catch (error) {
        if (!(error instanceof HttpFailure) || !isTransient(error)) throw error;
        const known = await recover(error, total);
        onProgress({ phase: 'finalizing', sent: total, total });
        // Gone means an earlier attempt finished it and only its answer was lost: we cannot tell its URL.
        if (known === 0) {
          throw new UploadError(
            'The upload was finished but the confirmation was lost. Check Edit Video Details before uploading it again.',
            error.status,
          );
        }
      }
    }
  } catch (error) {
    return fail(error);
  }
}
