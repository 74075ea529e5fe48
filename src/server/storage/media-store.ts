import type { Readable } from 'node:stream';
import { mediaMessages } from '../../contract/media';
import { UUID_SOURCE } from '../db/ids';
import type { StoreKind, UploadPart, UploadPiece } from '../db/schema';
import { HttpError } from '../errors';

/** Which store holds a piece of media: recorded per video and per upload, so both kinds can coexist. */
export type { StoreKind, UploadPart, UploadPiece } from '../db/schema';
export const STORE_KINDS = ['local', 's3'] as const;

/**
 * One key space for every store (the local store maps it onto DATA_DIR/media, as laid out before
 * stores existed, so old installs keep working):
 * - `uploads/<storageName>`: a chunked upload in progress (local: one file; S3: small chunks waiting
 *   to become a part are `uploads/<storageName>.<start>`, the parts themselves live in the multipart
 *   upload of its source key);
 * - `sources/<videoId>`: the finalized upload, kept until the ladder is done (videoId = storageName);
 * - `videos/<videoId>/poster.jpg` and `videos/<videoId>/v<height>/{index.m3u8,info.json,seg_NNNNN.ts}`;
 * - `videos/<videoId>/frames/<questionId>.jpg`: a question's frame of its moment (learning/frames.ts);
 * - `videos/<videoId>/frames/<second>.jpg`: small stills search results show, made when first asked;
 * - `thumbnails/<sha256>.<jpg|png>`;
 * - `trace-uploads/<runId>`: a leaked copy an admin uploaded to trace, until its trace job ends.
 * AES keys live in the database, never in a store.
 */
export const mediaKeys = {
  upload: (storageName: string) => `uploads/${storageName}`,
  uploadPiece: (storageName: string, start: number) => `uploads/${storageName}.${start}`,
  source: (videoId: string) => `sources/${videoId}`,
  video: (videoId: string) => `videos/${videoId}/`,
  rendition: (videoId: string, height: number) => `videos/${videoId}/${renditionName(height)}/`,
  videoFile: (videoId: string, rendition: string, file: string) => `videos/${videoId}/${rendition}/${file}`,
  poster: (videoId: string) => `videos/${videoId}/poster.jpg`,
  /** A question's frame of its moment: under the video's folder, so it goes with the video. */
  questionFrame: (videoId: string, questionId: string) => `videos/${videoId}/frames/${questionId}.jpg`,
  frame: (videoId: string, second: number) => `videos/${videoId}/frames/${second}.jpg`,
  thumbnail: (file: string) => `thumbnails/${file}`,
  traceUploads: 'trace-uploads/',
  traceUpload: (runId: string) => `trace-uploads/${runId}`,
};

/** `v720`: a rendition's folder and URL segment. */
export const renditionName = (height: number) => `v${height}`;

export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`);

export interface StoredObject {
  key: string;
  size: number;
  /** The store's checksum: S3's ETag (quotes removed); undefined on the local store. */
  etag?: string;
  modifiedAt: Date;
}

/** An object read, whole or a range of it. */
export interface ObjectRead {
  /** 200 whole, 206 a range, 416 a range outside the object (no body). */
  status: 200 | 206 | 416;
  /** The whole object's size. */
  size: number;
  /** Inclusive byte range sent (206), else the whole object. */
  start: number;
  end: number;
  body: Readable | undefined;
}

/** What a store needs to know of an upload (its row). */
export interface UploadRef {
  storageName: string;
  multipartId: string | null;
  offset: number;
  parts: UploadPart[];
  pieces: UploadPiece[];
}

/** The upload's row after a chunk: what the store acknowledged, to be committed to the database. */
export type UploadProgress = Pick<UploadRef, 'offset' | 'parts' | 'pieces'>;

/** Where an upload stands in the store. */
export interface ChunkSource extends AsyncIterable<Buffer> {
  readableEnded?: boolean;
  /** busboy sets it when the part passed its size limit. */
  truncated?: boolean;
}

/** A chunk being written: nothing of it counts until the database records what `seal` answers. */
export interface ChunkWriter {
  /**
   * Streams `source` to the upload at its start; `size` is the declared length when the client sent
   * one (a mismatch fails the chunk with 400). Answers the SHA-256 (base64) of what it wrote.
   */
  write(source: ChunkSource, size: number | undefined): Promise<{ digest: string; bytes: number }>;
  /** Makes the bytes durable in the store; answers the upload's new state, for the database. */
  seal(): Promise<UploadProgress>;
  /** After the database answered: drops what was not committed, tidies what was. Safe to call twice. */
  release(committed: boolean): Promise<void>;
}

/** The chunked-upload side of a store (SPEC section 7's /stream/upload-chunk and /stream/upload). */
export interface UploadTarget {
  /** Prepares a new (or restarted) upload; answers the multipart upload id, if the store uses one. */
  begin(storageName: string, previous: UploadRef | undefined): Promise<{ multipartId: string | null }>;
  /** Opens the chunk at `upload.offset`; `signal` aborts it (the writer lost its lease). */
  openChunk(upload: UploadRef, signal: AbortSignal): Promise<ChunkWriter>;
  /** Turns the acknowledged bytes into `sources/<storageName>`. Idempotent: done before is fine. */
  complete(upload: UploadRef): Promise<void>;
  /** Forgets an upload's bytes (the source is not touched). */
  abort(upload: Pick<UploadRef, 'storageName' | 'multipartId'>): Promise<void>;
  /** Uploads in the store begun before `before`, by storage name, for the cleanup to match against rows. */
  listStarted(before: Date): Promise<{ storageName: string; multipartId: string | null }[]>;
}

/**
 * Media storage: the local folder (DATA_DIR/media) or an S3-compatible bucket, behind one interface.
 * Keys are `mediaKeys`; prefixes end with `/`.
 */
export interface MediaStore {
  readonly kind: StoreKind;
  /** Writes a whole object from bytes, or from a file (a path) of the scratch folder. */
  put(key: string, body: Buffer | { file: string }, options?: { contentType?: string }): Promise<void>;
  /**
   * Reads an object, or the range an HTTP Range header asks for (anything but one `bytes=a-b`,
   * `bytes=a-` or `bytes=-n` reads it whole); undefined when it does not exist.
   */
  read(key: string, rangeHeader?: string): Promise<ObjectRead | undefined>;
  head(key: string): Promise<StoredObject | undefined>;
  /** Every object under `prefix`. */
  list(prefix: string): Promise<StoredObject[]>;
  /** The names one level below `prefix` (`videos/` -> video ids). */
  listChildren(prefix: string): Promise<string[]>;
  delete(key: string): Promise<void>;
  /** Deletes every object under `prefix`; answers how many there were. */
  deletePrefix(prefix: string): Promise<number>;
  /** A URL that reads `key` for `seconds` without credentials; undefined where the store has none (local). */
  presignGet(key: string, seconds: number, signedAt?: Date): Promise<string | undefined>;
  /** What ffmpeg/ffprobe can read `key` from: the file itself, or a short-lived presigned URL. */
  toolInput(key: string): Promise<string>;
  /** Copies `key` into the file `file` (S3), or answers the object's own file (local: no copy). */
  fetchToFile(key: string, file: string): Promise<string>;
  /**
   * Makes the finished folder `dir` (a scratch folder) the content of `prefix`, replacing what was
   * there. Local: one rename. S3: every file uploaded with bounded concurrency; until it returns,
   * the objects may be partly there, so callers list the result in the database only afterwards.
   */
  publish(dir: string, prefix: string, signal?: AbortSignal): Promise<void>;
  readonly uploads: UploadTarget;
}

/** The store is unreachable, refuses us or answers 5xx: the request may succeed later (503). */
export class StoreUnavailableError extends HttpError {
  /** For the job runner: the work is retried later without using up an attempt. */
  readonly retryLater = true;
  constructor(readonly reason: string) {
    super(503, mediaMessages.storageUnavailable, {}, { 'retry-after': '5' });
    this.name = 'StoreUnavailableError';
  }
}

/** An object's whole text, or undefined when it does not exist. */
export async function readText(store: MediaStore, key: string): Promise<string | undefined> {
  const read = await store.read(key);
  if (!read?.body) return undefined;
  const pieces: Buffer[] = [];
  for await (const piece of read.body) pieces.push(piece as Buffer);
  return Buffer.concat(pieces).toString('utf8');
}

/** A single `bytes=` range: [start, end] (either may be undefined), or undefined for "read it whole". */
export function rangeOf(header: string | undefined): [number | undefined, number | undefined] | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined; // several ranges or nonsense: send it all (allowed)
  return [m[1] === '' ? undefined : Number(m[1]), m[2] === '' ? undefined : Number(m[2])];
}

/** The inclusive range `header` asks of an object of `size`: 'unsatisfiable', or undefined for all of it. */
export function parseRange(
  header: string | undefined,
  size: number,
): [number, number] | 'unsatisfiable' | undefined {
  const range = rangeOf(header);
  if (!range) return undefined;
  const [from, to] = range;
  let start: number;
  let end: number;
  if (from === undefined) {
    if (to === 0) return 'unsatisfiable';
    start = Math.max(0, size - to!);
    end = size - 1;
  } else {
    start = from;
    end = to === undefined ? size - 1 : Math.min(to, size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return [start, end];
}
