/**
 * Upload client for the streaming benchmark, run as its own process: sends `totalBytes` to
 * /stream/upload-chunk in chunks of `chunkBytes` (fields first, with a checksum, as the web client
 * does) over one keep-alive connection. Prints { bytes, elapsedMs }.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { runChildMain } from '../test/support/child-main';

export interface UploadClientOptions {
  port: number;
  cookie: string;
  fileName: string;
  totalBytes: number;
  chunkBytes: number;
  /** Send this file's bytes (its first `totalBytes`) instead of generated noise. */
  file?: string;
  /** Pace the upload to at most this many Mbit/s, as an admin's uplink would. */
  maxMbps?: number;
}

/** The benchmark's chunk content: deterministic noise, so the raw-write baseline writes the same bytes. */
export function benchChunk(size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let x = 0x9e3779b9;
  for (let i = 0; i < size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeUInt32LE(x >>> 0, Math.min(i, size - 4));
  }
  return out;
}

function post(
  agent: Agent,
  o: UploadClientOptions,
  start: number,
  body: Buffer,
  checksum: string,
): Promise<void> {
  const boundary = 'lecternbench0123456789';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="fileName"\r\n\r\n${o.fileName}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="start"\r\n\r\n${start}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="size"\r\n\r\n${body.length}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="checksum"\r\n\r\n${checksum}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: o.port,
        path: '/stream/upload-chunk',
        method: 'POST',
        agent,
        headers: {
          cookie: o.cookie,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + body.length + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve()
            : reject(new Error(`chunk at ${start}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.write(head);
    req.write(body);
    req.end(tail);
  });
}

export async function uploadClient(o: UploadClientOptions): Promise<{ bytes: number; elapsedMs: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const full = benchChunk(o.chunkBytes);
  const fullSum = `sha256=${createHash('sha256').update(full).digest('base64')}`;
  const source = o.file ? await open(o.file, 'r') : undefined;
  const started = performance.now();
  for (let start = 0; start < o.totalBytes; start += o.chunkBytes) {
    let body = start + o.chunkBytes <= o.totalBytes ? full : full.subarray(0, o.totalBytes - start);
    if (source) {
      body = Buffer.alloc(body.length);
      await source.read(body, 0, body.length, start);
    }
    const sum = body === full ? fullSum : `sha256=${createHash('sha256').update(body).digest('base64')}`;
    await post(agent, o, start, body, sum);
    const due = o.maxMbps ? ((start + body.length) * 8) / (o.maxMbps * 1000) : 0;
    const ahead = due - (performance.now() - started);
    if (ahead > 0) await new Promise((r) => setTimeout(r, ahead));
  }
  await source?.close();
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { bytes: o.totalBytes, elapsedMs };
}

runChildMain(import.meta.url, uploadClient);

/**
 * Seconds from `started` (a performance.now() reading) until the finished upload's master
 * playlist at `url` answers 200: the first rung is packaged and playable.
 */
export async function secondsUntilPlayable(
  url: string,
  cookie: string,
  started: number,
  timeoutMs: number,
): Promise<number> {
  for (;;) {
    const res = await fetch(url, { headers: { cookie } });
    await res.arrayBuffer();
    if (res.status === 200) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutMs) throw new Error('the video did not become playable');
    await new Promise((r) => setTimeout(r, 20));
  }
}
