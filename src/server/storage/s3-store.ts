import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config';
import {
  rangeOf,
  StoreUnavailableError,
  type MediaStore,
  type ObjectRead,
  type StoredObject,
  type UploadTarget,
} from './media-store';
import { isNotFound, retried, statusOf, unavailable, type SdkError } from './s3-client';
import { S3Uploads } from './s3-uploads';
import {
  scratchFileSize,
  scratchFiles,
  scratchReadStream,
  scratchWriteStream,
  type Scratch,
} from './scratch';

export { checkBucket, createS3Client } from './s3-client';

/** Objects up to this size are one PutObject; larger ones a multipart upload of PUT_PART_BYTES parts. */
export const SINGLE_PUT_MAX_BYTES = 64 * 1024 * 1024;
export const PUT_PART_BYTES = 16 * 1024 * 1024;
/** Files of a published rendition uploaded at once. */
const PUBLISH_CONCURRENCY = 8;
/** Presigned URLs for ffprobe: long enough for a probe, short enough not to matter if one leaked. */
const TOOL_URL_SECONDS = 15 * 60;

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** Media in an S3-compatible bucket (AWS S3, Ceph RGW, MinIO, Cloudflare R2). */
export class S3Store implements MediaStore {
  readonly kind = 's3' as const;
  readonly uploads: UploadTarget;
  readonly bucket: string;

  constructor(
    readonly client: S3Client,
    config: Readonly<S3Config>,
    scratch: Scratch,
    maxUploadBytes: number,
  ) {
    this.bucket = config.bucket;
    this.uploads = new S3Uploads(this, scratch, maxUploadBytes);
  }

  /** Sends a command; a missing object is undefined, anything else that failed a StoreUnavailableError. */
  async send<T>(command: object, options?: { abortSignal?: AbortSignal }): Promise<T> {
    try {
      return (await this.client.send(command as never, options)) as T;
    } catch (error) {
      if (isNotFound(error)) throw error;
      throw unavailable(error);
    }
  }

  async put(
    key: string,
    body: Buffer | { file: string },
    options: { contentType?: string } = {},
  ): Promise<void> {
    const contentType = options.contentType ?? CONTENT_TYPES[path.extname(key)] ?? 'application/octet-stream';
    const size = Buffer.isBuffer(body) ? body.length : await scratchFileSize(body.file);
    try {
      await retried(() => this.putOnce(key, body, size, contentType));
    } catch (error) {
      throw unavailable(error);
    }
  }

  private async putOnce(key: string, body: Buffer | { file: string }, size: number, contentType: string) {
    const Body = Buffer.isBuffer(body) ? body : scratchReadStream(body.file);
    if (size <= SINGLE_PUT_MAX_BYTES) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body,
          ContentLength: size,
          ContentType: contentType,
        }),
      );
      return;
    }
    await new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body, ContentType: contentType },
      partSize: PUT_PART_BYTES,
      queueSize: 4,
    }).done();
  }

  async read(key: string, rangeHeader?: string): Promise<ObjectRead | undefined> {
    const range = rangeOf(rangeHeader);
    let header: string | undefined;
    if (range) {
      const [from, to] = range;
      if ((from === undefined && to === 0) || (from !== undefined && to !== undefined && from > to)) {
        return this.unsatisfiable(key);
      }
      header = `bytes=${from ?? ''}-${to ?? ''}`;
    }
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: header }),
      );
      const body = res.Body as Readable;
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.ContentRange ?? '');
      if (header && m)
        return { status: 206, start: Number(m[1]), end: Number(m[2]), size: Number(m[3]), body };
      const size = res.ContentLength ?? 0;
      return { status: 200, start: 0, end: size - 1, size, body: size ? body : (body.destroy(), undefined) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (statusOf(error) === 416 || (error as SdkError).name === 'InvalidRange')
        return this.unsatisfiable(key);
      throw unavailable(error);
    }
  }

  private async unsatisfiable(key: string): Promise<ObjectRead | undefined> {
    const info = await this.head(key);
    return info && { status: 416, size: info.size, start: 0, end: -1, body: undefined };
  }

  async head(key: string): Promise<StoredObject | undefined> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: res.ContentLength ?? 0,
        etag: res.ETag?.replaceAll('"', ''),
        modifiedAt: res.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw unavailable(error);
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    const out: StoredObject[] = [];
    let token: string | undefined;
    do {
      const res = await this.send<{
        Contents?: { Key?: string; Size?: number; ETag?: string; LastModified?: Date }[];
        NextContinuationToken?: string;
      }>(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of res.Contents ?? [])
        out.push({
          key: o.Key!,
          size: o.Size ?? 0,
          etag: o.ETag?.replaceAll('"', ''),
          modifiedAt: o.LastModified ?? new Date(0),
        });
      token = res.NextContinuationToken;
    } while (token);
    return out;
  }

  async listChildren(prefix: string): Promise<string[]> {
    const out = new Set<string>();
    let token: string | undefined;
    do {
      const res = await this.send<{
        Contents?: { Key?: string }[];
        CommonPrefixes?: { Prefix?: string }[];
        NextContinuationToken?: string;
      }>(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          Delimiter: '/',
          ContinuationToken: token,
        }),
      );
      for (const p of res.CommonPrefixes ?? []) out.add(p.Prefix!.slice(prefix.length, -1));
      for (const o of res.Contents ?? []) out.add(o.Key!.slice(prefix.length));
      token = res.NextContinuationToken;
    } while (token);
    return [...out];
  }

  async delete(key: string): Promise<void> {
    await this.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = (await this.list(prefix)).map((o) => o.key);
    await this.deleteKeys(keys);
    return keys.length;
  }

  async deleteKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const res = await this.send<{ Errors?: { Key?: string; Code?: string }[] }>(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (res.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length)
        throw new StoreUnavailableError(`could not delete ${failed.length} objects (${failed[0]!.Code})`);
    }
  }

  async presignGet(key: string, seconds: number, signedAt?: Date): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: seconds,
      signingDate: signedAt,
    });
  }

  toolInput(key: string): Promise<string> {
    return this.presignGet(key, TOOL_URL_SECONDS);
  }

  async fetchToFile(key: string, file: string): Promise<string> {
    const read = await this.read(key);
    if (!read) throw Object.assign(new Error(`${key} is missing`), { code: 'ENOENT' });
    try {
      await pipeline(read.body ?? Readable.from([]), scratchWriteStream(file));
    } catch (error) {
      throw unavailable(error);
    }
    return file;
  }

  async publish(dir: string, prefix: string, signal?: AbortSignal): Promise<void> {
    const files = await scratchFiles(dir);
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        signal?.throwIfAborted();
        const file = files[next++]!;
        await this.put(`${prefix}${file}`, { file: path.join(dir, file) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(PUBLISH_CONCURRENCY, files.length) }, worker));
  }
}
