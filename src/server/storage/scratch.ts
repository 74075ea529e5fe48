import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { mediaMessages } from '../../contract/media';
import { tooLarge } from '../errors';
import type { ChunkSource } from './media-store';

/**
 * The process's own scratch folder, DATA_DIR/media/staging: ffmpeg's output before it is published,
 * S3 sources copied down for ffmpeg, and chunks kept aside until their length or fields are known.
 * Never served and never shared between nodes; it sits beside the local store's folders so that
 * publishing to the local store is a rename on one file system.
 */
export class Scratch {
  constructor(readonly root: string) {}

  /** A path in the scratch folder (not created). */
  path(name: string): string {
    return path.join(this.root, name);
  }

  /** Creates the scratch folder itself. */
  async ensure(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  /** A fresh empty folder `name` (whatever was there before is gone). */
  async folder(name: string): Promise<string> {
    const dir = this.path(name);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async remove(...names: string[]): Promise<void> {
    for (const name of names) await rm(this.path(name), { recursive: true, force: true });
  }

  /** Removes every scratch entry of a video (`<videoId>.…`). */
  async removeVideo(videoId: string): Promise<void> {
    const names = (await readdir(this.root).catch(() => [] as string[])).filter((n) =>
      n.startsWith(`${videoId}.`),
    );
    await this.remove(...names);
  }

  /**
   * Keeps a chunk aside (hashing nothing: the writer hashes when it reads it back), up to the part's
   * own size limit (past it: 413 with `tooLargeMessage`). Reads the part to its end even after a
   * write failed, so the client gets an answer.
   */
  async spool(source: ChunkSource, tooLargeMessage: string = mediaMessages.chunkTooLarge): Promise<Spooled> {
    await mkdir(this.root, { recursive: true });
    const file = this.path(`.spool-${randomUUID()}`);
    const handle = await open(file, 'w');
    const remove = () => rm(file, { force: true });
    let size = 0;
    try {
      let failure: unknown;
      for await (const piece of source) {
        if (failure) continue;
        await writeFully(handle, [piece], size).catch((error: unknown) => void (failure = error));
        size += piece.length;
      }
      if (failure) throw failure;
      if (source.truncated) throw tooLarge(tooLargeMessage);
    } catch (error) {
      await handle.close().catch(() => {});
      await remove();
      throw error;
    }
    await handle.close();
    return {
      file,
      size,
      stream: () => createReadStream(file, { highWaterMark: 1024 * 1024 }),
      remove,
    };
  }
}

export interface Spooled {
  file: string;
  size: number;
  stream(): Readable;
  remove(): Promise<void>;
}

/** The scratch folder of a data directory. */
export const scratchOf = (dataDir: string) => new Scratch(path.join(dataDir, 'media', 'staging'));

/** A text file ffmpeg wrote. */
export const readScratchText = (file: string) => readFile(file, 'utf8');
/** A file's size in bytes. */
export const scratchFileSize = async (file: string) => (await stat(file)).size;
export const writeScratchFile = (file: string, data: string) => writeFile(file, data);
export const ensureScratchDir = async (dir: string) => void (await mkdir(dir, { recursive: true }));

/** Flushes a file or folder to disk, so a rename or a database write after it never points at lost bytes. */
export async function fsyncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes every byte of `buffers` at `position`. A nearly full disk takes part of a write and refuses
 * the rest (ENOSPC) only on the next one; a single writev would count the missing bytes as written.
 */
export async function writeFully(handle: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  const pending = buffers.filter((b) => b.length > 0);
  let at = position;
  while (pending.length) {
    const { bytesWritten } = await handle.writev(pending, at);
    if (bytesWritten === 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    at += bytesWritten;
    let skip = bytesWritten;
    while (pending.length && skip >= pending[0]!.length) skip -= pending.shift()!.length;
    if (skip) pending[0] = pending[0]!.subarray(skip);
  }
}

/** Streams into a scratch file (an S3 object copied down for ffmpeg). */
export const scratchWriteStream = (file: string) => createWriteStream(file);
/** Streams a scratch file (a published file on its way to the bucket). */
export const scratchReadStream = (file: string) => createReadStream(file, { highWaterMark: 1024 * 1024 });

/** Every file below `dir`, as paths relative to it with `/` separators. */
export async function scratchFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory())
      out.push(...(await scratchFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)));
    else out.push(`${prefix}${entry.name}`);
  }
  return out;
}
