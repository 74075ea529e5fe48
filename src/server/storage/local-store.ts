import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { LocalUploads } from './local-uploads';
import {
  parseRange,
  type MediaStore,
  type ObjectRead,
  type StoredObject,
  type UploadTarget,
} from './media-store';
import { fsyncPath } from './scratch';

/** Bytes read per disk read: a 1.4 MB segment in a few large reads costs far fewer syscalls. */
export const SEND_HIGH_WATER_MARK = 512 * 1024;

/** Flushes every file below `dir` and the folders themselves. */
async function fsyncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await fsyncTree(full);
    else await fsyncPath(full);
  }
  await fsyncPath(dir);
}

/**
 * Media as files: keys map onto DATA_DIR/media/<key> (thumbnails onto DATA_DIR/thumbnails), the
 * layout of every install before stores existed. Publishing is an atomic rename, uploads are one
 * file per upload written in place and fsynced before their offset is acknowledged.
 */
export class LocalStore implements MediaStore {
  readonly kind = 'local' as const;
  readonly root: string;
  private readonly thumbnails: string;
  readonly uploads: UploadTarget;

  constructor(dataDir: string, maxUploadBytes: number) {
    this.root = path.join(dataDir, 'media');
    this.thumbnails = path.join(dataDir, 'thumbnails');
    this.uploads = new LocalUploads((key) => this.pathOf(key), maxUploadBytes);
  }

  /** The file (or folder, for a prefix) of a key. Keys are built by our code, never taken from a client. */
  pathOf(key: string): string {
    if (key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`bad media key ${key}`);
    if (key.startsWith('thumbnails/')) return path.join(this.thumbnails, key.slice('thumbnails/'.length));
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer | { file: string }): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Written aside and renamed, so a crash never leaves a truncated object under its final name.
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    try {
      if (Buffer.isBuffer(body)) await writeFile(temp, body);
      else await pipeline(createReadStream(body.file), createWriteStream(temp));
      await fsyncPath(temp);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async read(key: string, rangeHeader?: string): Promise<ObjectRead | undefined> {
    const file = this.pathOf(key);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const size = info.size;
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') return { status: 416, size, start: 0, end: -1, body: undefined };
    const [start, end] = range ?? [0, size - 1];
    const body =
      size === 0 ? undefined : createReadStream(file, { start, end, highWaterMark: SEND_HIGH_WATER_MARK });
    return { status: range ? 206 : 200, size, start, end, body };
  }

  async head(key: string): Promise<StoredObject | undefined> {
    const info = await stat(this.pathOf(key)).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return { key, size: info.size, modifiedAt: new Date(Math.max(info.ctimeMs, info.mtimeMs)) };
  }

  async list(prefix: string): Promise<StoredObject[]> {
    // Every folder's entries are read and stat'ed at once, not one after the other: a backup lists
    // thousands of segments, and each stat is a round trip to the thread pool.
    const walk = async (dir: string, keyPrefix: string): Promise<StoredObject[]> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      const found = await Promise.all(
        entries.map(async (entry): Promise<StoredObject[]> => {
          const key = `${keyPrefix}${entry.name}`;
          if (entry.isDirectory()) return walk(path.join(dir, entry.name), `${key}/`);
          if (entry.name.endsWith('.tmp')) return [];
          const info = await stat(path.join(dir, entry.name)).catch(() => undefined);
          return info
            ? [{ key, size: info.size, modifiedAt: new Date(Math.max(info.ctimeMs, info.mtimeMs)) }]
            : [];
        }),
      );
      return found.flat();
    };
    return walk(this.pathOf(prefix), prefix);
  }

  async listChildren(prefix: string): Promise<string[]> {
    return (await readdir(this.pathOf(prefix)).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const count = (await this.list(prefix)).length;
    await rm(this.pathOf(prefix), { recursive: true, force: true });
    return count;
  }

  async presignGet(): Promise<undefined> {
    return undefined;
  }

  async toolInput(key: string): Promise<string> {
    return this.pathOf(key);
  }

  async fetchToFile(key: string): Promise<string> {
    const file = this.pathOf(key);
    if (!(await stat(file).catch(() => undefined)))
      throw Object.assign(new Error(`${key} is missing`), { code: 'ENOENT' });
    return file;
  }

  /** Replaces the prefix's folder with the complete folder `dir` (a rename: never half there). */
  async publish(dir: string, prefix: string): Promise<void> {
    await fsyncTree(dir);
    const target = this.pathOf(prefix);
    await mkdir(path.dirname(target), { recursive: true });
    await rm(target, { recursive: true, force: true }); // leftover of an attempt that died before its commit
    await rename(dir, target);
    await fsyncPath(path.dirname(target));
  }
}
