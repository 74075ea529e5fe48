import { Worker } from 'node:worker_threads';

export interface SaveLoadOptions {
  url: string;
  /** One session cookie per viewer, with the videos that viewer saves (in turn). */
  viewers: { cookie: string; videoIds: string[] }[];
  /** `ranges`: each save plays 1.5 s more of a video; `legacy`: position and a growing total only. */
  body: 'ranges' | 'legacy';
  /** Requests in flight at once (closed loop), or… */
  connections?: number;
  /** …each viewer saving once every this many ms (open loop, the player's pattern). */
  everyMs?: number;
  durationMs: number;
  warmupMs?: number;
}

export interface SaveLoadResult {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/* The client runs in its own thread (plain JavaScript: an eval'd worker has no TypeScript loader). */
const CLIENT = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { url, viewers, body, connections, everyMs, durationMs, warmupMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(64, connections || 0) });
const target = new URL(url);
const visits = new Map();

function payload(viewer, turn) {
  const videoId = viewer.videoIds[turn % viewer.videoIds.length];
  const n = (visits.get(viewer.cookie + videoId) || 0) + 1;
  visits.set(viewer.cookie + videoId, n);
  const t = (n * 1.5) % 500;
  return body === 'ranges'
    ? { videoId, position: t + 1.5, watched: 0, ranges: [[t, t + 1.5]], rate: 1 }
    : { videoId, position: t + 1.5, watched: n * 1.5 };
}

function once(viewer, turn) {
  const data = JSON.stringify(payload(viewer, turn));
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request({
      method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, agent,
      headers: { cookie: viewer.cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), origin: target.origin },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode }));
    });
    req.on('error', () => resolve({ ms: performance.now() - started, status: 0 }));
    req.end(data);
  });
}

(async () => {
  const latencies = [];
  const statuses = {};
  let recording = false;
  const record = (r) => {
    if (!recording) return;
    latencies.push(r.ms);
    statuses[r.status] = (statuses[r.status] || 0) + 1;
  };
  const start = performance.now() + warmupMs;
  const end = start + durationMs;
  setTimeout(() => { recording = true; }, warmupMs);
  if (connections) {
    let next = 0;
    await Promise.all(Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const i = next++;
        record(await once(viewers[i % viewers.length], Math.floor(i / viewers.length)));
      }
    }));
  } else {
    // Each viewer saves every everyMs, starting at a random offset, as players do.
    await Promise.all(viewers.map(async (viewer) => {
      await new Promise((r) => setTimeout(r, Math.random() * everyMs));
      for (let turn = 0; performance.now() < end; turn++) {
        const sent = performance.now();
        record(await once(viewer, turn));
        const wait = Math.max(0, everyMs - (performance.now() - sent));
        if (performance.now() + wait >= end) break;
        await new Promise((r) => setTimeout(r, wait));
      }
    }));
  }
  agent.destroy();
  parentPort.postMessage({ latencies: Float64Array.from(latencies), statuses, elapsed: performance.now() - start });
})();
`;

const percentile = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** Sends progress saves as many viewers would, and reports throughput and latency. */
export async function measureSaves(options: SaveLoadOptions): Promise<SaveLoadResult> {
  const worker = new Worker(CLIENT, { eval: true, workerData: { warmupMs: 1_000, ...options } });
  const raw = await new Promise<{
    latencies: Float64Array;
    statuses: Record<string, number>;
    elapsed: number;
  }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  const sorted = raw.latencies.sort();
  const errors = Object.entries(raw.statuses)
    .filter(([status]) => status !== '200')
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    requests: sorted.length,
    errors,
    statuses: raw.statuses,
    rps: sorted.length / (raw.elapsed / 1000),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? 0,
  };
}
