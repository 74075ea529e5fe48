import cluster, { type Worker } from 'node:cluster';
import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue,
  type Registry,
} from 'prom-client';

const REQUEST = 'lectern:metrics-request';
const ANSWER = 'lectern:metrics-answer';
const WORKER_TIMEOUT_MS = 2_000;

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** In a WEB_CONCURRENCY HTTP process: answers the primary's requests for this process's metrics. */
export function answerMetricsRequests(registry: Registry): void {
  process.on('message', (message: { type?: string; id?: number }) => {
    if (message?.type !== REQUEST) return;
    void registry
      .getMetricsAsJSON()
      .then((metrics) => process.send?.({ type: ANSWER, id: message.id, metrics }));
  });
}

let requests = 0;

function ask(worker: Worker, id: number): Promise<MetricsJson | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.off('message', onMessage);
      resolve(undefined); // a process busy dying: the others still answer
    }, WORKER_TIMEOUT_MS);
    const onMessage = (message: { type?: string; id?: number; metrics?: MetricsJson }) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(message.metrics);
    };
    worker.on('message', onMessage);
    worker.send({ type: REQUEST, id });
  });
}

/**
 * The WEB_CONCURRENCY primary's scrape: its own metrics (jobs run here) and every HTTP process's,
 * aggregated as prom-client's AggregatorRegistry does (counters and histograms summed, database
 * gauges taken once).
 */
export async function clusterMetrics(own: Registry): Promise<{ contentType: string; body: string }> {
  const id = ++requests;
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
  const answers = await Promise.all(workers.map((w) => ask(w, id)));
  const all = [(await own.getMetricsAsJSON()) as MetricsJson, ...answers.filter((a) => a !== undefined)];
  const registry = AggregatorRegistry.aggregate(all);
  return { contentType: registry.contentType, body: await registry.metrics() };
}
