import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BackupConfig, S3Config } from '../config';
import { createS3Client, isNotFound, statusOf } from '../storage/s3-client';
import { CopyWorkers } from './copy-workers';
import { BackupError, BackupTargetUnavailableError } from './errors';
import { objectKey } from './manifest';

/**
 * Where backups are kept: a folder or an S3 prefix. Keys are relative (`objects/<sha256>`,
 * `backups/<id>/manifest.json`); every write is whole or absent (a temp file renamed, or one PUT).
 */
export interface BackupTarget {
  /** As the user wrote it: a folder or `s3://bucket/prefix`. */
  readonly label: string;
  /** Fails with one line when the target cannot be reached or written. */
  check(): Promise<void>;
  /** Every key under `prefix`, with its size and when it was written (ms). */
  list(prefix: string): Promise<TargetObject[]>;
  readBytes(key: string): Promise<Buffer | undefined>;
  readStream(key: string): Promise<Readable>;
  writeBytes(key: string, bytes: Buffer): Promise<void>;
  /** Writes a whole object from a stream; `size` is known for every media object. */
  writeStream(key: string, body: Readable, size: number): Promise<void>;
  delete(keys: string[]): Promise<void>;
  /**
   * Folders only: writes content under `objects/<sha256>` in one pass (hashed on the way, renamed
   * into place unless that content is there already). Answers its hash and whether it was new.
   */
  readonly putContent?: (
    body: Readable,
    size: number,
  ) => Promise<{ sha256: string; size: number; written: boolean }>;
  /**
   * Writes a stream of unknown length under `objects/<its sha256>`, hashing it on the way (the
   * database dump). Answers the hash and the bytes written.
   */
  writeContent(body: AsyncIterable<Buffer>): Promise<{ sha256: string; size: number }>;
  /** Folders only: copies a local file in by content on a worker thread (copy-workers.ts). */
  readonly copyFile?: (source: string) => Promise<{ sha256: string; size: number; written: boolean }>;
  /** Copies an object of `bucket` (reachable with these credentials) without moving its bytes through us. */
  readonly serverSideCopy?: (bucket: string, from: string, key: string) => Promise<void>;
  close(): void;
}

export interface TargetObject {
  key: string;
  size: number;
  modifiedAt: number;
}

/** Opens `spec` (a folder or `s3://bucket/prefix`; default BACKUP_TARGET). */
export function openTarget(
  config: Readonly<BackupConfig>,
  spec?: string,
  media?: Readonly<S3Config>,
): BackupTarget {
  const label = spec ?? config.target;
  if (!label.startsWith('s3://')) return new FolderTarget(path.resolve(label));
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(label);
  if (!match)
    throw new BackupError(`Not a backup target: ${label} (expected a folder or s3://bucket/prefix)`);
  if (!config.s3)
    throw new BackupError(
      `${label} needs bucket credentials: set BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY (or S3_*)`,
    );
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  // Same endpoint and credentials as the media bucket: objects are copied inside the service.
  const sameService =
    media !== undefined &&
    media.endpoint === config.s3.endpoint &&
    media.accessKeyId === config.s3.accessKeyId &&
    media.secretAccessKey === config.s3.secretAccessKey;
  return new S3Target(
    label,
    createS3Client({ ...config.s3, bucket: match[1]! }),
    match[1]!,
    prefix,
    sameService,
  );
}

/** The target failed us: one line, marked for a retry later. */
function unreachable(label: string, error: unknown): BackupError {
  if (error instanceof BackupError) return error;
  const e = error as NodeJS.ErrnoException & { $metadata?: unknown };
  const status = statusOf(error);
  const why = status ? `HTTP ${status}` : (e.code ?? e.name);
  return new BackupTargetUnavailableError(
    `The backup target ${label} cannot be reached (${why}: ${e.message})`.slice(0, 300),
  );
}

/** Objects up to this size are read into memory whole (8 copy workers: at most 32 MB held). */
const IN_MEMORY_BYTES = 4 * 1024 * 1024;

/**
 * A backup folder is the school's data: only Lectern's user reads it. Files 0600 and folders 0700
 * as they are made (umask cannot widen these), and the folder itself 0700 at every check, which
 * also closes what earlier versions wrote 0644/0755 beneath it.
 */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

class FolderTarget implements BackupTarget {
  constructor(readonly label: string) {}

  /** Folders this target made already: one mkdir per folder, not one per object. */
  private readonly folders = new Set<string>();

  private readonly workers = new CopyWorkers();

  readonly copyFile = async (source: string) => {
    try {
      return await this.workers.copy(source, this.label);
    } catch (error) {
      throw unreachable(this.label, error);
    }
  };

  readonly putContent = async (body: Readable, size: number) => {
    if (size <= IN_MEMORY_BYTES) {
      // A segment or a poster: read whole, hashed once, written once. Streaming each small object
      // through a temp file costs ~3x the time of the copy itself.
      try {
        const bytes = await buffer(body);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const written = !(await stat(this.file(objectKey(sha256))).catch(() => undefined));
        if (written) await this.writeBytes(objectKey(sha256), bytes);
        return { sha256, size: bytes.length, written };
      } catch (error) {
        throw unreachable(this.label, error);
      }
    }
    const temp = this.file(`objects/.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const hash = createHash('sha256');
    let streamed = 0;
    try {
      await this.mkdir(path.dirname(temp));
      await pipeline(
        body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            hash.update(chunk);
            streamed += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(temp, { highWaterMark: 1024 * 1024, mode: FILE_MODE }),
      );
      const sha256 = hash.digest('hex');
      const final = this.file(objectKey(sha256));
      const written = !(await stat(final).catch(() => undefined));
      if (written) {
        await this.mkdir(path.dirname(final));
        await rename(temp, final);
      }
      return { sha256, size: streamed, written };
    } catch (error) {
      throw unreachable(this.label, error);
    } finally {
      await rm(temp, { force: true });
    }
  };

  async writeContent(body: AsyncIterable<Buffer>) {
    const { sha256, size } = await this.putContent(Readable.from(body), Infinity);
    return { sha256, size };
  }

  private async mkdir(folder: string) {
    if (this.folders.has(folder)) return;
    await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
    this.folders.add(folder);
  }

  private file(key: string) {
    return path.join(this.label, ...key.split('/'));
  }

  async check() {
    try {
      await mkdir(this.label, { recursive: true, mode: FOLDER_MODE });
      // A folder someone else owns (a shared mount) keeps its mode; what Lectern writes is still 0600.
      await chmod(this.label, FOLDER_MODE).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPERM') throw error;
      });
      // Unique per call: a readiness probe and a backup may check the same folder at once.
      const probe = this.file(`.probe-${process.pid}-${randomBytes(4).toString('hex')}`);
      await writeFile(probe, '');
      await rm(probe);
    } catch (error) {
      throw new BackupTargetUnavailableError(
        `The backup folder ${this.label} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
  }

  async list(prefix: string) {
    // Each folder's entries stat'ed at once (as the local store lists): thousands of objects.
    const walk = async (dir: string, keyPrefix: string): Promise<TargetObject[]> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw unreachable(this.label, error);
      }
      const found = await Promise.all(
        entries.map(async (entry): Promise<TargetObject[]> => {
          const key = `${keyPrefix}${entry.name}`;
          if (entry.isDirectory()) return walk(path.join(dir, entry.name), `${key}/`);
          if (entry.name.includes('.tmp-')) return [];
          const info = await stat(path.join(dir, entry.name));
          return [{ key, size: info.size, modifiedAt: info.mtimeMs }];
        }),
      );
      return found.flat();
    };
    const base = prefix.endsWith('/') ? prefix : prefix.slice(0, prefix.lastIndexOf('/') + 1);
    return (await walk(this.file(base), base)).filter((o) => o.key.startsWith(prefix));
  }

  async readBytes(key: string) {
    try {
      return await readFile(this.file(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw unreachable(this.label, error);
    }
  }

  async readStream(key: string) {
    await stat(this.file(key)).catch((error: unknown) => {
      throw unreachable(this.label, error);
    });
    return createReadStream(this.file(key), { highWaterMark: 1024 * 1024 });
  }

  private async atomically(key: string, write: (temp: string) => Promise<void>) {
    const target = this.file(key);
    const temp = `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    try {
      await this.mkdir(path.dirname(target));
      await write(temp);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw unreachable(this.label, error);
    }
  }

  writeBytes(key: string, bytes: Buffer) {
    return this.atomically(key, (temp) => writeFile(temp, bytes, { mode: FILE_MODE }));
  }

  writeStream(key: string, body: Readable) {
    return this.atomically(key, (temp) =>
      pipeline(body, createWriteStream(temp, { highWaterMark: 1024 * 1024, mode: FILE_MODE })),
    );
  }

  async delete(keys: string[]) {
    for (const key of keys) await rm(this.file(key), { force: true });
  }

  close() {
    this.workers.close();
  }
}

class S3Target implements BackupTarget {
  readonly serverSideCopy?: (bucket: string, from: string, key: string) => Promise<void>;

  constructor(
    readonly label: string,
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
    sameService: boolean,
  ) {
    if (sameService) this.serverSideCopy = (bucket, from, key) => this.copy(bucket, from, key);
  }

  /** CopyObject: the bytes stay inside the service. */
  private async copy(bucket: string, from: string, key: string) {
    await this.send(() =>
      this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: this.key(key),
          CopySource: `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
        }),
      ),
    );
  }

  private key(key: string) {
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  private async send<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw unreachable(this.label, error);
    }
  }

  async check() {
    await this.send(() => this.client.send(new HeadBucketCommand({ Bucket: this.bucket })));
  }

  async list(prefix: string) {
    const out: TargetObject[] = [];
    let token: string | undefined;
    const strip = this.prefix ? this.prefix.length + 1 : 0;
    do {
      const page = await this.send(() =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.key(prefix),
            ContinuationToken: token,
          }),
        ),
      );
      for (const o of page.Contents ?? [])
        out.push({ key: o.Key!.slice(strip), size: o.Size ?? 0, modifiedAt: o.LastModified?.getTime() ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async readBytes(key: string) {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }),
      );
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw unreachable(this.label, error);
    }
  }

  async readStream(key: string) {
    const answer = await this.send(() =>
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) })),
    );
    return answer.Body as Readable;
  }

  async writeBytes(key: string, bytes: Buffer) {
    await this.send(() =>
      this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: bytes })),
    );
  }

  async writeStream(key: string, body: Readable, size: number) {
    await this.send(async () => {
      if (size < 16 * 1024 * 1024) {
        await this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: body, ContentLength: size }),
        );
      } else {
        await new Upload({
          client: this.client,
          params: { Bucket: this.bucket, Key: this.key(key), Body: body },
        }).done();
      }
    });
  }

  async writeContent(body: AsyncIterable<Buffer>) {
    // The key is the content's hash, known at the end: uploaded under a temporary key (pruned
    // like any unreferenced object if the backup dies), then copied inside the bucket.
    const temp = `objects/.tmp-${randomBytes(8).toString('hex')}`;
    const hash = createHash('sha256');
    let size = 0;
    const hashed = async function* () {
      for await (const chunk of body) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    };
    await this.send(() =>
      new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: this.key(temp), Body: Readable.from(hashed()) },
      }).done(),
    );
    const sha256 = hash.digest('hex');
    try {
      await this.copy(this.bucket, this.key(temp), objectKey(sha256));
    } finally {
      await this.delete([temp]);
    }
    return { sha256, size };
  }

  async exists(key: string) {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw unreachable(this.label, error);
    }
  }

  async delete(keys: string[]) {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await this.send(() =>
        this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((k) => ({ Key: this.key(k) })), Quiet: true },
          }),
        ),
      );
    }
  }

  close() {
    this.client.destroy();
  }
}
