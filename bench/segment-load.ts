/**
 * Load client for the streaming benchmark, run as its own process so it never shares the server's
 * event loop: keeps `connections` keep-alive connections busy with GETs over `paths` (round robin)
 * for `durationMs` after `warmupMs`, reading raw HTTP/1.1 off the socket (responses must carry
 * Content-Length). Prints one JSON line: { requests, bytes, errors, elapsedMs }.
 *
 *   node --import tsx bench/segment-load.ts '{"port":3000,"paths":["/a.ts"],"connections":16,"durationMs":5000}'
 */
import { connect, type Socket } from 'node:net';
import { runChildMain } from '../test/support/child-main';

export interface SegmentLoadOptions {
  host?: string;
  port: number;
  paths: string[];
  connections: number;
  durationMs: number;
  warmupMs?: number;
  /** Extra request header lines, e.g. "Cookie: token=…". */
  headers?: string[];
}

export interface SegmentLoadResult {
  requests: number;
  bytes: number;
  errors: number;
  elapsedMs: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

function runConnection(
  o: SegmentLoadOptions,
  index: number,
  shared: { next: number },
  counting: () => boolean,
  stats: SegmentLoadResult,
  endAt: number,
): Promise<void> {
  const host = o.host ?? '127.0.0.1';
  const extra = (o.headers ?? []).map((h) => `${h}\r\n`).join('');
  return new Promise((resolve) => {
    const socket: Socket = connect(o.port, host);
    socket.setNoDelay(true);
    let head: Buffer = Buffer.alloc(0);
    let remaining = -1; // body bytes still expected; -1 while reading headers
    let status = 0;
    const send = () => {
      if (performance.now() >= endAt) {
        socket.end();
        return resolve();
      }
      const path = o.paths[shared.next++ % o.paths.length]!;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}:${o.port}\r\n${extra}\r\n`);
    };
    const finish = () => {
      if (counting()) {
        stats.requests++;
        if (status < 200 || status >= 300) stats.errors++;
      }
      remaining = -1;
      head = Buffer.alloc(0);
      send();
    };
    socket.on('data', (data: Buffer) => {
      let chunk = data;
      while (chunk.length) {
        if (remaining < 0) {
          head = head.length ? Buffer.concat([head, chunk]) : chunk;
          const end = head.indexOf(HEADER_END);
          if (end < 0) return;
          const text = head.subarray(0, end).toString('latin1');
          status = Number(text.slice(9, 12));
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
          remaining = length ? Number(length[1]) : 0;
          chunk = head.subarray(end + 4);
          if (remaining === 0) {
            finish();
            continue;
          }
        }
        const take = Math.min(remaining, chunk.length);
        if (counting()) stats.bytes += take;
        remaining -= take;
        chunk = chunk.subarray(take);
        if (remaining === 0) finish();
      }
    });
    socket.on('error', () => {
      stats.errors++;
      resolve();
    });
    socket.on('close', () => resolve());
    setTimeout(send, index % 16); // spread the first requests a little
  });
}

/** Runs the load in this process (the benchmark starts it in a child process via the CLI below). */
export async function segmentLoad(o: SegmentLoadOptions): Promise<SegmentLoadResult> {
  const warmup = o.warmupMs ?? 1000;
  const start = performance.now();
  const measureFrom = start + warmup;
  const endAt = measureFrom + o.durationMs;
  const stats: SegmentLoadResult = { requests: 0, bytes: 0, errors: 0, elapsedMs: 0 };
  const counting = () => {
    const now = performance.now();
    return now >= measureFrom && now < endAt;
  };
  const shared = { next: 0 };
  await Promise.all(
    Array.from({ length: o.connections }, (_, i) => runConnection(o, i, shared, counting, stats, endAt)),
  );
  stats.elapsedMs = o.durationMs;
  return stats;
}

runChildMain(import.meta.url, segmentLoad);
