/**
 * Metrics benchmark (issue 19), one run: what exporting metrics costs.
 *
 * 1. Scrape time: GET /metrics's work (the registry's text) with 10k series, target < 50 ms.
 * 2. Throughput: wrk against GET /api/time (the cheapest route, so the per-request cost of timing
 *    it shows most) on the production bundle, metrics off and on, alternated; target on >= 0.97x off.
 * 3. The evening rush (bench/rush.ts, shortened) with metrics off and on, Prometheus-like scrapes
 *    every 5 s during the on run: request count, p99 per kind (segments through the fast path
 *    included), errors.
 *
 *   npm run bench -- metrics     METRICS_BENCH_VIEWERS=100 METRICS_BENCH_SUSTAIN=30 BENCH_SECONDS=8
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { splitRouteKey } from '../src/contract/route-kit';
import { routes } from '../src/contract/routes';
import { requestObserver } from '../src/server/metrics/http-metrics';
import { createMetrics } from '../src/server/metrics/metrics';
import { startBuiltServer } from '../test/support/processes';
import { API_KINDS, bundleServer, runRush, type RushOutcome } from './rush';

const run$ = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const VIEWERS = Number(process.env.METRICS_BENCH_VIEWERS ?? 100);
const SUSTAIN = Number(process.env.METRICS_BENCH_SUSTAIN ?? 30);
const TOKEN = 'bench-metrics-token-0123456789abcdef';
const SCRAPE_TARGET_MS = 50;
const RATIO_TARGET = 0.97;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A registry with about `target` series: request histogram children over the route table's templates. */
async function scrapeTime(
  target: number,
): Promise<{ series: number; medianMs: number; p95Ms: number; cpuMedianMs: number; cpuP95Ms: number }> {
  const metrics = createMetrics();
  const observe = requestObserver(metrics);
  const templates = Object.keys(routes).map((k) => splitRouteKey(k));
  const count = async () =>
    (await metrics.registry.metrics()).split('\n').filter((l) => l && !l.startsWith('#')).length;
  const methods = ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS', 'OTHER'];
  const statuses = [200, 204, 301, 400, 401, 403, 404, 429, 500, 503];
  let i = 0;
  outer: for (const status of statuses)
    for (const method of methods)
      for (const { path: route } of templates) {
        observe(route, method, status, (i++ % 100) / 1000);
        if (i % 50 === 0 && (await count()) >= target) break outer;
      }
  // Fake route names beyond the table, only if the table is too small to reach the target.
  for (let n = 0; (await count()) < target; n++) observe(`/bench/${n}`, 'GET', 200, 0.01);
  const series = await count();
  // Wall time, and this process's CPU time (the scrape's own work, whatever else the machine runs).
  const times: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < 30; r++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await metrics.registry.metrics();
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    times.push(performance.now() - t);
  }
  const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
  return { series, medianMs: median(times), p95Ms: p95(times), cpuMedianMs: median(cpu), cpuP95Ms: p95(cpu) };
}

async function startBundle(
  main: string,
  env: Record<string, string>,
): Promise<{ url: string; stop(): Promise<void> }> {
  // Two minutes: a shared machine under load starts slowly.
  const { url, stop } = await startBuiltServer({
    main,
    env,
    prefix: 'lectern-metrics-bench-',
    timeoutMs: 120_000,
    intervalMs: 100,
  });
  return { url, stop };
}

async function wrk(url: string): Promise<{ rps: number; p99: number }> {
  const { stdout } = await run$('wrk', ['-t', '2', '-c', '32', '-d', `${SECONDS}s`, '--latency', url]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  if (!rps || !p99) throw new Error(`wrk said:\n${stdout}`);
  const scale = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
  return { rps, p99: Number(p99[1]) * scale };
}

function rushLine(label: string, o: RushOutcome): string {
  const kinds = o.result.kinds;
  const total = Object.values(kinds).reduce((n, k) => n + k.count, 0);
  const errors = Object.values(kinds).reduce((n, k) => n + k.errors, 0);
  const apiP99 = Math.max(...API_KINDS.map((k) => kinds[k]?.p99 ?? 0));
  return `${label.padEnd(14)}${String(total).padStart(8)}${(total / o.elapsedSeconds).toFixed(1).padStart(9)}${String(errors).padStart(8)}${apiP99.toFixed(0).padStart(10)}${(kinds.progress?.p99 ?? 0).toFixed(0).padStart(10)}${(kinds.segment?.p99 ?? 0).toFixed(0).padStart(10)}${String(o.result.stalls).padStart(8)}`;
}

export async function run(): Promise<boolean> {
  const checks: { name: string; value: string; pass: boolean }[] = [];

  // Figures scale with how busy the machine is: say so beside them.
  console.log(`Machine: load average ${loadavg()[0]!.toFixed(2)} (1 min)`);
  const scrape = await scrapeTime(10_000);
  console.log(
    `Scrape: ${scrape.series} series (request histogram over the route table, plus Node's defaults): wall ${scrape.medianMs.toFixed(1)} ms median, ${scrape.p95Ms.toFixed(1)} ms p95; CPU ${scrape.cpuMedianMs.toFixed(1)} ms median, ${scrape.cpuP95Ms.toFixed(1)} ms p95 (30 scrapes)`,
  );
  // CPU time is the scrape's cost; wall time on a shared machine adds the wait for a core.
  checks.push({
    name: `scrape at 10k series < ${SCRAPE_TARGET_MS} ms (CPU)`,
    value: `${scrape.cpuMedianMs.toFixed(1)} ms median, ${scrape.cpuP95Ms.toFixed(1)} ms p95; wall ${scrape.medianMs.toFixed(1)} ms median`,
    pass: scrape.cpuMedianMs < SCRAPE_TARGET_MS,
  });

  const bundle = await bundleServer();
  try {
    const main = path.join(bundle, 'main.js');
    console.log(
      `\nwrk -t2 -c32 -d${SECONDS}s GET /api/time, production bundle, off/on alternated three times (best of 3)`,
    );
    const best = { off: { rps: 0, p99: Infinity }, on: { rps: 0, p99: Infinity } };
    for (let round = 0; round < 3; round++)
      for (const mode of ['off', 'on'] as const) {
        const server = await startBundle(main, mode === 'on' ? { METRICS_TOKEN: TOKEN } : {});
        try {
          await wrk(`${server.url}/api/time`).catch(() => undefined); // warm-up (JIT)
          const r = await wrk(`${server.url}/api/time`);
          console.log(
            `  ${mode.padEnd(4)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${r.p99.toFixed(2)} ms`,
          );
          best[mode] = { rps: Math.max(best[mode].rps, r.rps), p99: Math.min(best[mode].p99, r.p99) };
          if (mode === 'on') {
            const text = await (
              await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
            ).text();
            if (!text.includes('route="/api/time"'))
              throw new Error('metrics on, but /api/time was not counted');
          }
        } finally {
          await server.stop();
        }
      }
    const ratio = best.on.rps / best.off.rps;
    console.log(
      `  best: off ${best.off.rps.toFixed(0)} req/s p99 ${best.off.p99.toFixed(2)} ms; on ${best.on.rps.toFixed(0)} req/s p99 ${best.on.p99.toFixed(2)} ms; on/off ${ratio.toFixed(3)}x`,
    );
    checks.push({
      name: `throughput on >= ${RATIO_TARGET}x off`,
      value: `${ratio.toFixed(3)}x`,
      pass: ratio >= RATIO_TARGET,
    });
  } finally {
    await rm(bundle, { recursive: true, force: true });
  }

  console.log(
    `\nRush, ${VIEWERS} viewers over 20 s then ${SUSTAIN} s watching: metrics off, then on (scraped every 5 s)`,
  );
  const rush = (serverEnv?: Record<string, string>) =>
    runRush({
      viewers: VIEWERS,
      rampSeconds: 20,
      sustainSeconds: SUSTAIN,
      uploadMbit: 40,
      serverEnv,
      scrape: serverEnv ? { token: TOKEN, everyMs: 5_000 } : undefined,
    });
  const off = await rush();
  const on = await rush({ METRICS_TOKEN: TOKEN });
  console.log(
    `\n${''.padEnd(14)}${'requests'.padStart(8)}${'req/s'.padStart(9)}${'errors'.padStart(8)}${'API p99'.padStart(10)}${'save p99'.padStart(10)}${'seg p99'.padStart(10)}${'stalls'.padStart(8)}`,
  );
  console.log(rushLine('metrics off', off));
  console.log(rushLine('metrics on', on));
  const rate = (o: RushOutcome) =>
    Object.values(o.result.kinds).reduce((n, k) => n + k.count, 0) / o.elapsedSeconds;
  console.log(
    `  rush throughput on/off ${(rate(on) / rate(off)).toFixed(3)}x (paced clients: equal unless the server falls behind); ${on.scrapeMs.length} scrapes during the run, median ${on.scrapeMs.length ? median(on.scrapeMs).toFixed(1) : '–'} ms`,
  );
  const errors = (o: RushOutcome) => Object.values(o.result.kinds).reduce((n, k) => n + k.errors, 0);
  checks.push({
    name: 'rush with metrics on: zero errors',
    value: String(errors(on)),
    pass: errors(on) === 0,
  });

  console.log('\nTargets');
  for (const c of checks) console.log(`  [${c.pass ? 'PASS' : 'FAIL'}] ${c.name}: ${c.value}`);
  return checks.every((c) => c.pass);
}
