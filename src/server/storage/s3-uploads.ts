import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mediaMessages } from '../../contract/media';
import { badRequest, locked, tooLarge, unprocessable } from '../errors';
import {
  mediaKeys,
  StoreUnavailableError,
  type ChunkSource,
  type ChunkWriter,
  type MediaStore,
  type UploadPart,
  type UploadPiece,
  type UploadRef,
  type UploadTarget,
} from './media-store';
import { isNotFound, retried, unavailable } from './s3-client';
import type { Scratch } from './scratch';

/**
 * What uploads use of the S3 store that owns them (S3Store is one): declared here, since the store
 * creates its uploads and importing it back would be a cycle.
 */
export interface UploadBucket extends Pick<MediaStore, 'read' | 'head' | 'list'> {
  readonly bucket: string;
  send<T>(command: object, options?: { abortSignal?: AbortSignal }): Promise<T>;
  deleteKeys(keys: string[]): Promise<void>;
}

/** S3's smallest part (all but the last); also the web client's chunk size (UPLOAD_CHUNK_SIZE). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/** Concatenates objects into one stream (pieces read back to become one part). */
function concatObjects(store: UploadBucket, keys: string[]): Readable {
  return Readable.from(
    (async function* () {
      for (const key of keys) {
        const read = await store.read(key);
        if (!read) throw new StoreUnavailableError(`upload piece ${key} is missing`);
        if (read.body) yield* read.body as AsyncIterable<Buffer>;
      }
    })(),
  );
}

/**
 * A Lectern upload as an S3 multipart upload of its source key (`sources/<storageName>`). A chunk of
 * at least MIN_PART_BYTES, with none waiting before it, streams straight into the next part. A
 * smaller chunk (S3 refuses parts under 5 MiB but the last) is kept as its own object, a piece,
 * until the pieces add up to a part (or the upload is finalized): then they are read back and sent
 * as one part. The row records parts and pieces only once the bucket acknowledged them.
 */
export class S3Uploads implements UploadTarget {
  constructor(
    private readonly store: UploadBucket,
    private readonly scratch: Scratch,
    private readonly maxUploadBytes: number,
  ) {}

  private get bucket() {
    return this.store.bucket;
  }

  async begin(storageName: string, previous: UploadRef | undefined): Promise<{ multipartId: string }> {
    if (previous) await this.abort(previous);
    const res = await this.store.send<{ UploadId?: string }>(
      new CreateMultipartUploadCommand({
        Bucket: this.bucket,
        Key: mediaKeys.source(storageName),
        ContentType: 'application/octet-stream',
      }),
    );
    return { multipartId: res.UploadId! };
  }

  async openChunk(upload: UploadRef, signal: AbortSignal): Promise<ChunkWriter> {
    const { store, scratch, maxUploadBytes, bucket } = this;
    const compose = (pieces: UploadPiece[]) => this.compose(upload, pieces, signal);
    const key = mediaKeys.source(upload.storageName);
    let sent: { kind: 'part'; part: UploadPart } | { kind: 'piece'; piece: UploadPiece } | undefined;
    let composed: UploadPiece[] = [];
    let spooled: { remove(): Promise<void> } | undefined;
    let released = false;
    return {
      async write(source, declared) {
        let size = declared;
        let body: ChunkSource = source;
        if (size === undefined) {
          // No length given (a spec client): keep the chunk aside to learn it. Bounded by the part limit.
          const spool = await scratch.spool(source);
          spooled = spool;
          size = spool.size;
          body = spool.stream();
        }
        if (upload.offset + size > maxUploadBytes) {
          await discardRest(body);
          throw tooLarge(mediaMessages.tooLarge(maxUploadBytes));
        }
        if (size === 0) {
          // Nothing to store (a client probing the offset): the upload stays as it is.
          await discardRest(body);
          if (body.truncated) throw tooLarge(mediaMessages.chunkTooLarge);
          return { digest: createHash('sha256').digest('base64'), bytes: 0 };
        }
        const direct = upload.pieces.length === 0 && size >= MIN_PART_BYTES;
        const number = upload.parts.length + 1;
        const pieceKey = mediaKeys.uploadPiece(upload.storageName, upload.offset);
        const command = direct
          ? (Body: Readable) =>
              new UploadPartCommand({
                Bucket: bucket,
                Key: key,
                UploadId: upload.multipartId!,
                PartNumber: number,
                Body,
                ContentLength: size,
              })
          : (Body: Readable) =>
              new PutObjectCommand({ Bucket: bucket, Key: pieceKey, Body, ContentLength: size });
        const { digest, etag } = await streamInto(store, body, size, command, signal);
        sent = direct
          ? { kind: 'part', part: { number, etag, size } }
          : { kind: 'piece', piece: { start: upload.offset, size } };
        return { digest, bytes: size };
      },
      async seal() {
        if (!sent) return { offset: upload.offset, parts: upload.parts, pieces: upload.pieces };
        const offset = upload.offset + (sent.kind === 'part' ? sent.part.size : sent.piece.size);
        if (sent.kind === 'part') return { offset, parts: [...upload.parts, sent.part], pieces: [] };
        const pieces = [...upload.pieces, sent.piece];
        if (pieces.reduce((s, p) => s + p.size, 0) < MIN_PART_BYTES)
          return { offset, parts: upload.parts, pieces };
        const part = await compose(pieces);
        composed = pieces;
        return { offset, parts: [...upload.parts, part], pieces: [] };
      },
      async release(committed) {
        if (released) return;
        released = true;
        await spooled?.remove();
        // Pieces made into a part are not needed once the row says so; a piece the row never took is garbage.
        const garbage = committed
          ? composed
          : sent?.kind === 'piece' && !upload.pieces.includes(sent.piece)
            ? [sent.piece]
            : [];
        await store
          .deleteKeys(garbage.map((p) => mediaKeys.uploadPiece(upload.storageName, p.start)))
          .catch(() => {}); // left for the cleanup
      },
    };
  }

  /** Reads `pieces` back and sends them as the upload's next part. */
  private async compose(upload: UploadRef, pieces: UploadPiece[], signal?: AbortSignal): Promise<UploadPart> {
    const size = pieces.reduce((s, p) => s + p.size, 0);
    const number = upload.parts.length + 1;
    const res = await retried(() =>
      this.store.send<{ ETag?: string }>(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: mediaKeys.source(upload.storageName),
          UploadId: upload.multipartId!,
          PartNumber: number,
          Body: concatObjects(
            this.store,
            pieces.map((p) => mediaKeys.uploadPiece(upload.storageName, p.start)),
          ),
          ContentLength: size,
        }),
        { abortSignal: signal },
      ),
    );
    return { number, etag: res.ETag!, size };
  }

  async complete(upload: UploadRef): Promise<void> {
    const key = mediaKeys.source(upload.storageName);
    const parts = [...upload.parts];
    try {
      if (upload.pieces.length) parts.push(await this.compose(upload, upload.pieces));
      await this.store.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: upload.multipartId!,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.number, ETag: p.etag })) },
        }),
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
      // Completed before, by a finalize that died before its database commit?
      if ((await this.store.head(key))?.size !== upload.offset)
        throw unprocessable(mediaMessages.emptyUpload);
    }
    await this.deletePieces(upload.storageName).catch(() => {});
  }

  async abort(upload: Pick<UploadRef, 'storageName' | 'multipartId'>): Promise<void> {
    if (upload.multipartId) {
      await this.store
        .send(
          new AbortMultipartUploadCommand({
            Bucket: this.bucket,
            Key: mediaKeys.source(upload.storageName),
            UploadId: upload.multipartId,
          }),
        )
        .catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
        });
    }
    await this.deletePieces(upload.storageName);
  }

  private async deletePieces(storageName: string): Promise<void> {
    const pieces = await this.store.list(`${mediaKeys.upload(storageName)}.`);
    await this.store.deleteKeys(pieces.map((o) => o.key));
  }

  async listStarted(before: Date): Promise<{ storageName: string; multipartId: string | null }[]> {
    const out: { storageName: string; multipartId: string | null }[] = [];
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    for (;;) {
      const res = await this.store.send<{
        Uploads?: { Key?: string; UploadId?: string; Initiated?: Date }[];
        IsTruncated?: boolean;
        NextKeyMarker?: string;
        NextUploadIdMarker?: string;
      }>(
        new ListMultipartUploadsCommand({
          Bucket: this.bucket,
          Prefix: 'sources/',
          KeyMarker: keyMarker,
          UploadIdMarker: idMarker,
        }),
      );
      for (const u of res.Uploads ?? [])
        if (u.Initiated && u.Initiated < before)
          out.push({ storageName: u.Key!.slice('sources/'.length), multipartId: u.UploadId! });
      if (!res.IsTruncated) break;
      keyMarker = res.NextKeyMarker;
      idMarker = res.NextUploadIdMarker;
    }
    for (const piece of await this.store.list('uploads/'))
      if (piece.modifiedAt < before)
        out.push({ storageName: piece.key.slice('uploads/'.length).split('.')[0]!, multipartId: null });
    return out;
  }
}

/** Reads a source to its end, dropping the bytes (so the client can finish sending before we answer). */
async function discardRest(source: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of source) {
    // dropped
  }
}

/**
 * Streams `source` (declared `size` bytes) into the request `command` builds, hashing as it goes,
 * with backpressure. The client's bytes are read to their end whatever happens, so it gets our
 * answer: a length other than `size` aborts the request (400), a failed request is a 503, a lost
 * lease (`signal`) a 423.
 */
async function streamInto(
  store: UploadBucket,
  source: ChunkSource,
  size: number,
  command: (body: Readable) => object,
  signal: AbortSignal,
): Promise<{ digest: string; etag: string }> {
  const hash = createHash('sha256');
  const body = new PassThrough({ highWaterMark: 1024 * 1024 });
  const abort = new AbortController();
  const onLease = () => abort.abort(signal.reason);
  signal.addEventListener('abort', onLease, { once: true });
  let mismatch = false;
  let failure: unknown;
  const sending = store
    .send<{ ETag?: string }>(command(body), { abortSignal: abort.signal })
    .catch((error: unknown) => {
      failure = error;
      body.destroy();
      return undefined;
    });
  let received = 0;
  try {
    for await (const piece of source) {
      received += piece.length;
      if (failure || mismatch) continue; // keep reading: the client must be able to finish and read our answer
      if (received > size) {
        mismatch = true;
        abort.abort(new Error('size mismatch'));
        continue;
      }
      hash.update(piece);
      if (!body.write(piece)) await Promise.race([once(body, 'drain'), once(body, 'close')]);
    }
    if (source.truncated) {
      abort.abort(new Error('chunk too large'));
      await sending;
      throw tooLarge(mediaMessages.chunkTooLarge);
    }
    if (!failure && !mismatch && received < size) {
      mismatch = true;
      abort.abort(new Error('size mismatch'));
    }
    if (!mismatch) body.end();
    const res = await sending;
    if (mismatch) throw badRequest(mediaMessages.sizeMismatch);
    if (signal.aborted) throw locked(mediaMessages.busy);
    if (!res) throw unavailable(failure);
    return { digest: hash.digest('base64'), etag: res.ETag! };
  } finally {
    signal.removeEventListener('abort', onLease);
  }
}
