import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, rmdir, stat, statfs, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SmallDisk {
  dir: string;
  /** Bytes still free for writing. */
  free(): Promise<number>;
  /** Fills the disk with a filler file until `leave` bytes (rounded to pages) are free. */
  fill(leave: number): Promise<void>;
  /** Deletes the filler: the space is back. */
  release(): Promise<void>;
  /** Unmounts and removes the mount point. */
  unmount(): Promise<void>;
}

/**
 * A tmpfs of `bytes` mounted on a fresh temp folder (needs root, or CAP_SYS_ADMIN). Answers a reason
 * instead when this machine will not mount one, so the caller can skip saying why.
 */
export async function mountSmallDisk(bytes: number): Promise<SmallDisk | { skip: string }> {
  if (process.platform !== 'linux') return { skip: `tmpfs needs Linux (this is ${process.platform})` };
  const dir = await mkdtemp(path.join(tmpdir(), 'lectern-smalldisk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', dir]);
  } catch (error) {
    await rmdir(dir).catch(() => {});
    const why = (error as { stderr?: string }).stderr?.trim() || String(error);
    return { skip: `cannot mount a tmpfs here (${why})` };
  }
  const filler = path.join(dir, '.filler');
  const free = async () => {
    const s = await statfs(dir);
    return s.bavail * s.bsize;
  };
  return {
    dir,
    free,
    async fill(leave) {
      const handle = await open(filler, 'a');
      const block = Buffer.alloc(1024 * 1024, 0x5a);
      try {
        for (;;) await handle.write(block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        await handle.close();
      }
      await truncate(filler, Math.max(0, (await stat(filler)).size - leave));
    },
    release: () => rm(filler, { force: true }),
    async unmount() {
      for (let i = 0; i < 20; i++) {
        try {
          await run('umount', [dir]);
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 250)); // something still has a file open: give it a moment
        }
      }
      await rmdir(dir).catch(() => {});
    },
  };
}
