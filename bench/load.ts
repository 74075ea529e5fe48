import { Worker } from 'node:worker_threads';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  warmupMs?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  bytesPerResponse: number;
}

/*
 * The client runs in its own thread, so measuring does not steal the server's event loop (it
 * still shares the machine's cores, as a load balancer in front of the app would not). Plain
 * JavaScript: a worker started with `eval` has no TypeScript loader.
 */
const CLIENT = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, connections, durationMs, warmupMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const target = new URL(url);

function once() {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request({ hostname: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => { bytes += chunk.length; });
      res.on('end', () => resolve({ ms: performance.now() - started, ok: res.statusCode === 200, bytes }));
    });
    req.on('error', () => resolve({ ms: performance.now() - started, ok: false, bytes: 0 }));
    req.end();
  });
}

async function loop(until, record) {
  while (performance.now() < until) record(await once());
}

(async () => {
  const warmEnd = performance.now() + warmupMs;
  await Promise.all(Array.from({ length: connections }, () => loop(warmEnd, () => {})));
  const latencies = [];
  let errors = 0;
  let bytes = 0;
  const start = performance.now();
  const end = start + durationMs;
  await Promise.all(Array.from({ length: connections }, () => loop(end, (r) => {
    latencies.push(r.ms);
    if (!r.ok) errors += 1;
    bytes += r.bytes;
  })));
  const elapsed = performance.now() - start;
  agent.destroy();
  parentPort.postMessage({ latencies: Float64Array.from(latencies), errors, bytes, elapsed });
})();
`;

const percentile = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

/** Keeps `connections` requests in flight for `durationMs` after a warm-up, and reports latency and throughput. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  const worker = new Worker(CLIENT, {
    eval: true,
    workerData: { headers: {}, warmupMs: 1_000, ...options },
  });
  const raw = await new Promise<{ latencies: Float64Array; errors: number; bytes: number; elapsed: number }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  await worker.terminate();
  const sorted = raw.latencies.sort();
  const requests = sorted.length;
  return {
    requests,
    errors: raw.errors,
    rps: requests / (raw.elapsed / 1000),
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[requests - 1] ?? 0,
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, requests),
    bytesPerResponse: raw.bytes / Math.max(1, requests),
  };
}
