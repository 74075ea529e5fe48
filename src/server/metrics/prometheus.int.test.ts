import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitRouteKey } from '../../contract/route-kit';
import { routes } from '../../contract/routes';
import { createTestDatabase, testEngines, type TestDatabase } from '../../../test/support/databases';
import { freePort, startServerProcess, type ServerProcess } from '../../../test/support/processes';
import { suiteTempDirs } from '../../../test/support/temp-dirs';
import { UNMATCHED_ROUTE, WEB_APP_ROUTE } from './metrics';

const TOKEN = 'prometheus-scrapes-with-this-token-0123';
const P99 = 'histogram_quantile(0.99, sum by (le) (rate(http_server_request_duration_seconds_bucket[1m])))';

interface Vector {
  metric: Record<string, string>;
  value: [number, string];
}

/**
 * Debian's Prometheus server scraping a real Lectern process (src/server/main.ts) every second:
 * through METRICS_PORT and through the main port with the bearer token, then PromQL over its HTTP API.
 */
describe('Prometheus scrapes Lectern', () => {
  const tempDir = suiteTempDirs();
  let lectern: ServerProcess;
  let metricsPort: number;
  let prometheus: ChildProcess;
  let prometheusUrl: string;
  let prometheusLog = '';

  beforeAll(async () => {
    const dataDir = await tempDir('lectern-prom-data-');
    metricsPort = await freePort();
    lectern = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: 'memory://',
      SEED_DEMO: 'false',
      OPEN_HOURS: 'always',
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: TOKEN,
    });
    const main = new URL(lectern.url);
    const dir = await tempDir('lectern-prometheus-');
    const config = path.join(dir, 'prometheus.yml');
    await writeFile(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        '  scrape_timeout: 1s',
        'scrape_configs:',
        '  - job_name: lectern',
        '    static_configs:',
        `      - targets: ['127.0.0.1:${metricsPort}']`,
        '  - job_name: lectern-token',
        '    authorization:',
        `      credentials: ${TOKEN}`,
        '    static_configs:',
        `      - targets: ['${main.host}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout!.on('data', (d) => (prometheusLog += d));
    prometheus.stderr!.on('data', (d) => (prometheusLog += d));
    for (const deadline = Date.now() + 30_000; ;) {
      const ready = await fetch(`${prometheusUrl}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline || prometheus.exitCode !== null)
        throw new Error(`prometheus did not start:\n${prometheusLog}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await lectern?.stop();
  });

  async function query(promql: string): Promise<Vector[]> {
    const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as { status: string; data: { result: Vector[] } };
    expect(body.status).toBe('success');
    return body.data.result;
  }

  /** Sends requests to Lectern until `until` answers something, PromQL being asked every second. */
  async function withTraffic<T>(until: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 45_000;
    for (let round = 0; ; round++) {
      await Promise.all([
        ...Array.from({ length: 20 }, () => fetch(`${lectern.url}/api/time`).then((r) => r.text())),
        fetch(`${lectern.url}/api/no-such-thing/${round}`).then((r) => r.text()),
      ]);
      const answer = await until();
      if (answer !== undefined) return answer;
      if (Date.now() > deadline) throw new Error(`no answer in time; prometheus said:\n${prometheusLog}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  it('answers the p99 of request time, job counts and both targets up, after traffic', async () => {
    const p99 = await withTraffic(async () => {
      const [row] = await query(P99);
      const value = row ? Number(row.value[1]) : NaN;
      return Number.isFinite(value) && value > 0 ? value : undefined;
    });
    expect(p99).toBeLessThan(30);
    console.info(`PromQL ${P99} = ${p99.toFixed(4)} s`);

    const up = await query('up');
    expect(up.map((r) => [r.metric.job, r.value[1]]).sort()).toEqual([
      ['lectern', '1'],
      ['lectern-token', '1'],
    ]);
    // The recurring housekeeping jobs are queued at start: the gauge has rows by type and state.
    const jobs = await withTraffic(async () => {
      const rows = await query('sum by (type, state) (lectern_jobs{job="lectern"})');
      return rows.length ? rows : undefined;
    });
    expect(jobs.map((r) => r.metric.type)).toContain('accounts.purge-expired');
    const perRoute = await query('sum by (route) (rate(http_server_request_duration_seconds_count[1m]))');
    const labels = perRoute.map((r) => r.metric.route!);
    expect(labels).toContain('/api/time');
    const templates = new Set(Object.keys(routes).map((key) => splitRouteKey(key).path));
    expect(labels.filter((l) => !templates.has(l) && l !== UNMATCHED_ROUTE && l !== WEB_APP_ROUTE)).toEqual(
      [],
    );
    expect((await query('nodejs_heap_size_used_bytes{job="lectern"}')).length).toBe(1);
  });

  it('refuses /metrics on the main port without the token, and serves nothing else on its own port', async () => {
    expect((await fetch(`${lectern.url}/metrics`)).status).toBe(403);
    expect(
      (await fetch(`${lectern.url}/metrics`, { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(403);
    const own = `http://127.0.0.1:${metricsPort}`;
    expect((await fetch(`${own}/metrics`)).status).toBe(200);
    expect((await fetch(`${own}/api/time`)).status).toBe(404);
    expect((await fetch(`${own}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});

/** WEB_CONCURRENCY=2: the primary's METRICS_PORT adds up both HTTP processes (PostgreSQL only). */
describe.runIf(testEngines().includes('postgres'))('metrics with WEB_CONCURRENCY=2', () => {
  const tempDir = suiteTempDirs();
  let database: TestDatabase;
  let lectern: ServerProcess;
  let metricsPort: number;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    metricsPort = await freePort();
    lectern = await startServerProcess({
      DATA_DIR: await tempDir('lectern-cluster-metrics-'),
      DATABASE_URL: database.url,
      SEED_DEMO: 'false',
      OPEN_HOURS: 'always',
      WEB_CONCURRENCY: '2',
      METRICS_PORT: String(metricsPort),
    });
  }, 120_000);
  afterAll(async () => {
    await lectern?.stop();
    await database?.drop();
  });

  it('counts every request once, whichever process answered it', async () => {
    const series =
      'http_server_request_duration_seconds_count{route="/api/time",method="GET",status_class="2xx"}';
    const count = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    const before = await count();
    // New connections each time: the cluster spreads them over both processes.
    for (let i = 0; i < 40; i++)
      await fetch(`${lectern.url}/api/time`, { headers: { connection: 'close' } }).then((r) => r.text());
    expect((await count()) - before).toBe(40);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    // Database figures are taken once, not added up per process.
    expect(text.match(/^# TYPE lectern_jobs gauge$/gm)).toHaveLength(1);
  });
});
