import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Copies files into a backup folder on worker threads: each file read, hashed (SHA-256) and, when
 * the folder lacks that content, written under `objects/<sha256>` (0600, via a temp file renamed),
 * all off the main thread. Hashing every byte is most of a backup's work; here it runs on every
 * core while the main thread writes the database dump.
 *
 * The worker is plain JavaScript evaluated as it is: it runs the same from the sources (tsx) and
 * from the bundle in dist/.
 */
const WORKER = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const WHOLE = 4 * 1024 * 1024;
const buffer = Buffer.allocUnsafe(1024 * 1024);
const place = (root, sha256) => {
  const final = path.join(root, 'objects', sha256.slice(0, 2), sha256);
  fs.mkdirSync(path.dirname(final), { recursive: true, mode: 0o700 });
  return final;
};
parentPort.on('message', ({ id, source, root }) => {
  let temp;
  try {
    const hash = createHash('sha256');
    const fd = fs.openSync(source, 'r');
    let size = 0;
    let written = false;
    let sha256;
    try {
      const length = fs.fstatSync(fd).size;
      if (length <= WHOLE) {
        // A segment or a poster: read whole, hashed once, written once if new.
        const bytes = fs.readFileSync(fd);
        size = bytes.length;
        sha256 = hash.update(bytes).digest('hex');
        const final = place(root, sha256);
        if (!fs.existsSync(final)) {
          temp = final + '.tmp-' + process.pid + '-' + id;
          fs.writeFileSync(temp, bytes, { mode: 0o600 });
          fs.renameSync(temp, final);
          written = true;
        }
      } else {
        // A source: streamed through a temp file, hashed on the way.
        temp = path.join(root, 'objects', '.tmp-' + process.pid + '-' + id);
        fs.mkdirSync(path.dirname(temp), { recursive: true, mode: 0o700 });
        const out = fs.openSync(temp, 'w', 0o600);
        try {
          for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; size += n) {
            hash.update(buffer.subarray(0, n));
            fs.writeSync(out, buffer, 0, n);
          }
        } finally {
          fs.closeSync(out);
        }
        sha256 = hash.digest('hex');
        const final = place(root, sha256);
        if (!fs.existsSync(final)) {
          fs.renameSync(temp, final);
          written = true;
        }
      }
    } finally {
      fs.closeSync(fd);
    }
    if (temp) fs.rmSync(temp, { force: true });
    parentPort.postMessage({ id, sha256, size, written });
  } catch (error) {
    if (temp) fs.rmSync(temp, { force: true });
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
`;

export interface CopiedFile {
  sha256: string;
  size: number;
  written: boolean;
}

type Pending = { resolve: (copied: CopiedFile) => void; reject: (error: Error) => void };

/** A pool of one worker per core, made on first use; `close` ends them. */
export class CopyWorkers {
  private workers: { worker: Worker; busy: number }[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  /** Copies `source` into the backup folder `root` by content. */
  copy(source: string, root: string): Promise<CopiedFile> {
    if (!this.workers.length)
      this.workers = Array.from({ length: Math.max(1, availableParallelism()) }, () => this.start());
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextId++;
    slot.busy++;
    return new Promise<CopiedFile>((resolve, reject) => {
      this.pending.set(id, {
        resolve: (copied) => (slot.busy--, resolve(copied)),
        reject: (error) => (slot.busy--, reject(error)),
      });
      slot.worker.postMessage({ id, source, root });
    });
  }

  private start() {
    const worker = new Worker(WORKER, { eval: true });
    worker.on('message', (m: { id: number; error?: { message: string; code?: string } } & CopiedFile) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) waiting?.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
      else waiting?.resolve(m);
    });
    worker.on('error', (error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    return { worker, busy: 0 };
  }

  close() {
    for (const { worker } of this.workers) void worker.terminate();
    this.workers = [];
  }
}
