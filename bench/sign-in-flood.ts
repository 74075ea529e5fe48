/**
 * Sign-in flood (issue 37, item 2): 100,000 distinct names against the default in-memory rate
 * counter, from one address as the issue measured it, while a prober asks GET /healthz every
 * 100 ms. Targets: /healthz answers in under 50 ms at the median while flooding, and the server
 * keeps under 100 MB more after it: its V8 heap after a full collection (asked over the inspector),
 * as its RSS swings by more than that with PGlite's and the collector's own timing (RSS is printed
 * beside it). Figures before the flood (idle) beside the flood's, and the flood's own rate per
 * tenth, so a slowdown as the counter fills shows.
 *
 *   npm run bench -- sign-in-flood    BENCH_FLOOD_NAMES=100000 BENCH_FLOOD_CONNECTIONS=16
 *
 * The server is src/server/main.ts as a process of its own (in-memory PGlite, no REDIS_URL), so
 * its RSS is its alone. The first 100 names are checked (a password hash each); the rest meet the
 * address's window (429).
 */
import { Agent, request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startServerProcess } from '../test/support/processes';
import { rssMB } from './proc-sampler';

const NAMES = Number(process.env.BENCH_FLOOD_NAMES ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 16);
const PROBE_EVERY_MS = 100;
const IDLE_PROBES = 50;
const TENTH = Math.max(1, Math.floor(NAMES / 10));
const HEALTHZ_TARGET_MS = 50;
const GROWTH_TARGET_MB = 100;

/** The server's V8 heap in MB after a full collection, over its inspector: what it keeps, not garbage. */
async function heapAfterGc(inspectorUrl: string): Promise<number> {
  const socket = new WebSocket(inspectorUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let lastId = 0;
  const call = (method: string) =>
    new Promise<{ usedSize?: number }>((resolve) => {
      const id = ++lastId;
      const onReply = (event: MessageEvent) => {
        const reply = JSON.parse(String(event.data)) as { id?: number; result: { usedSize?: number } };
        if (reply.id !== id) return;
        socket.removeEventListener('message', onReply);
        resolve(reply.result);
      };
      socket.addEventListener('message', onReply);
      socket.send(JSON.stringify({ id, method }));
    });
  await call('HeapProfiler.collectGarbage');
  const { usedSize = 0 } = await call('Runtime.getHeapUsage');
  socket.close();
  return usedSize / 1024 / 1024;
}

/** One HTTP exchange on `agent`'s kept-alive sockets: the status, once the body is read. */
function send(agent: Agent, url: string, method: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent, method, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};

/** Asks /healthz every PROBE_EVERY_MS until stopped; the answer times in ms. */
function startProber(url: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const status = await send(agent, `${url}/healthz`, 'GET');
      if (status !== 200) throw new Error(`/healthz answered ${status}`);
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  return {
    times,
    async stop() {
      running = false;
      await done;
      agent.destroy();
    },
  };
}

async function flood(url: string, pid: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const statuses: Record<number, number> = {};
  const tenths: number[] = [];
  const rssTenths: number[] = [];
  let next = 0;
  let rssPeak = 0;
  const started = performance.now();
  let tenthStarted = started;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMB(pid))), 1000);
  const tag = Date.now().toString(36);
  const worker = async () => {
    while (next < NAMES) {
      const i = next++;
      const body = JSON.stringify({ username: `flood-${tag}-${i}`, password: 'Wrong@pass1' });
      const status = await send(agent, `${url}/api/signin`, 'POST', body);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if ((i + 1) % TENTH === 0) {
        const now = performance.now();
        tenths.push(TENTH / ((now - tenthStarted) / 1000));
        rssTenths.push(rssMB(pid));
        tenthStarted = now;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  clearInterval(sampler);
  agent.destroy();
  return { seconds: (performance.now() - started) / 1000, statuses, tenths, rssTenths, rssPeak };
}

export async function run(): Promise<boolean> {
  console.log(`Machine: load average ${loadavg()[0]!.toFixed(2)} (1 min)`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-flood-bench-'));
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    SEED_DEMO: 'false',
    OPEN_HOURS: 'always',
    REDIS_URL: '', // the default: counters in this process's memory
    NODE_OPTIONS: '--inspect=127.0.0.1:0', // for heapAfterGc
  });
  try {
    const pid = server.child.pid!;
    const inspector = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(server.output())?.[0];
    if (!inspector) throw new Error(`the server named no inspector address:\n${server.output()}`);
    const idle = startProber(server.url);
    while (idle.times.length < IDLE_PROBES) await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    await idle.stop();
    const rssBefore = rssMB(pid);
    const heapBefore = await heapAfterGc(inspector);

    console.log(
      `Flooding POST /api/signin with ${NAMES.toLocaleString('en')} distinct names from one address, ${CONNECTIONS} connections`,
    );
    const busy = startProber(server.url);
    const result = await flood(server.url, pid);
    await busy.stop();
    await new Promise((r) => setTimeout(r, 2_000)); // what the flood left, not its last requests
    const rssAfter = rssMB(pid);
    const heapAfter = await heapAfterGc(inspector);
    const peak = Math.max(result.rssPeak, rssAfter);

    const line = (label: string, times: number[]) =>
      `  ${label.padEnd(16)} median ${percentile(times, 0.5).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 0.95).toFixed(1).padStart(6)} ms   (${times.length} probes)`;
    console.log('/healthz');
    console.log(line('before the flood', idle.times));
    console.log(line('while flooding', busy.times));
    console.log(
      `Flood: ${result.seconds.toFixed(0)} s, ${(NAMES / result.seconds).toFixed(0)} names/s; answers ${JSON.stringify(result.statuses)}`,
    );
    console.log(`  names/s per tenth: ${result.tenths.map((r) => r.toFixed(0)).join(' ')}`);
    console.log(`  server RSS (MB) after each tenth: ${result.rssTenths.map((r) => r.toFixed(0)).join(' ')}`);
    console.log(
      `Server RSS: ${rssBefore.toFixed(0)} MB before, ${rssAfter.toFixed(0)} MB after: grew ${(rssAfter - rssBefore).toFixed(0)} MB (peak ${peak.toFixed(0)} MB, ${(peak - rssBefore).toFixed(0)} MB over before)`,
    );
    console.log(
      `Server heap after a full collection: ${heapBefore.toFixed(1)} MB before, ${heapAfter.toFixed(1)} MB after: kept ${(heapAfter - heapBefore).toFixed(1)} MB more`,
    );
    console.log(`Machine: load average ${loadavg()[0]!.toFixed(2)} (1 min) at the end`);

    const unexpected = Object.keys(result.statuses).filter((s) => s !== '401' && s !== '429');
    const checks = [
      {
        name: `/healthz median while flooding < ${HEALTHZ_TARGET_MS} ms`,
        value: `${percentile(busy.times, 0.5).toFixed(1)} ms (p95 ${percentile(busy.times, 0.95).toFixed(1)} ms)`,
        pass: percentile(busy.times, 0.5) < HEALTHZ_TARGET_MS,
      },
      {
        name: `server memory kept after the flood < ${GROWTH_TARGET_MB} MB`,
        value: `heap ${(heapAfter - heapBefore).toFixed(1)} MB (RSS ${(rssAfter - rssBefore).toFixed(0)} MB, peak ${(peak - rssBefore).toFixed(0)} MB over before)`,
        pass: heapAfter - heapBefore < GROWTH_TARGET_MB,
      },
      {
        name: 'every sign-in answered 401 or 429',
        value: unexpected.length ? `also ${unexpected.join(', ')}` : 'yes',
        pass: unexpected.length === 0,
      },
    ];
    console.log('\nTargets');
    for (const c of checks) console.log(`  [${c.pass ? 'PASS' : 'FAIL'}] ${c.name}: ${c.value}`);
    return checks.every((c) => c.pass);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
