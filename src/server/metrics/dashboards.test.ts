import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { metricNames } from '../../../test/support/promql';
import { registerLiveGauges } from '../live/live-metrics';
import { createMetrics } from './metrics';

const DASHBOARD = path.resolve(import.meta.dirname, '../../../docs/grafana/lectern.json');

/** Series Prometheus itself adds to every target. */
const PROMETHEUS_OWN = new Set(['up']);
/** The readiness probe's series, from Prometheus's blackbox exporter. */
const BLACKBOX = new Set(['probe_success']);
const RULES = path.resolve(import.meta.dirname, '../../../docs/prometheus/lectern-alerts.yml');

/** Every series name the registry exports (histograms with their _bucket, _sum and _count). */
async function exportedNames(): Promise<Set<string>> {
  const { registry } = createMetrics();
  // The live gauges are installed with the app (they read the database and the ingests).
  registerLiveGauges(registry, {
    classesLive: async () => 0,
    viewers: () => 0,
    figures: () => [],
    now: Date.now,
  });
  const known = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    known.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) known.add(metric.name + suffix);
  }
  return known;
}

describe('docs/prometheus/lectern-alerts.yml', () => {
  const text = readFileSync(RULES, 'utf8');
  /** Each rule's expression: one line, or a `|` block of deeper-indented lines. */
  const exprs = [...text.matchAll(/^(\s*)expr: (?:\|\n((?:\1\s+.*\n)+)|(.*)\n)/gm)].map((m) => m[2] ?? m[3]!);

  it('passes promtool check rules', () => {
    expect(execFileSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' })).toMatch(
      new RegExp(`SUCCESS: ${exprs.length} rules found`),
    );
  });

  it('uses only metrics Lectern exports (and up, and the blackbox probe)', async () => {
    const known = await exportedNames();
    expect(exprs.length).toBeGreaterThanOrEqual(8);
    const unknown = exprs.flatMap((expr) =>
      metricNames(expr).filter((n) => !known.has(n) && !PROMETHEUS_OWN.has(n) && !BLACKBOX.has(n)),
    );
    expect(unknown).toEqual([]);
  });
});

describe('docs/grafana/lectern.json', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    __inputs: { name: string }[];
    panels: { type: string; title: string; targets?: { expr: string }[] }[];
    templating: { list: { query: { query: string } }[] };
  };
  const exprs = [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr }))),
    ...dashboard.templating.list.map((v) => ({
      panel: 'variable',
      expr: v.query.query.replace(/^label_values\((\w+),.*$/, '$1'),
    })),
  ];

  it('finds the names in PromQL', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, route) (rate(http_server_request_duration_seconds_bucket{job=~"x"}[5m])))',
      ),
    ).toEqual(['http_server_request_duration_seconds_bucket']);
    expect(metricNames('sum(rate(a_total[1m])) / (sum(rate(b_total[1m])) + 1e3) * 60')).toEqual([
      'a_total',
      'b_total',
    ]);
  });

  it('is importable: a Prometheus data source input and panels with queries', () => {
    expect(dashboard.__inputs.map((i) => i.name)).toEqual(['DS_PROMETHEUS']);
    expect(exprs.length).toBeGreaterThan(15);
  });

  it('queries only metrics Lectern exports', async () => {
    const known = await exportedNames();
    for (const name of PROMETHEUS_OWN) known.add(name);
    const unknown = exprs.flatMap(({ panel, expr }) =>
      metricNames(expr)
        .filter((name) => !known.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(unknown).toEqual([]);
    // Every Lectern metric has a panel.
    const used = new Set(exprs.flatMap(({ expr }) => metricNames(expr)));
    const lectern = [...known].filter((n) => n.startsWith('lectern_') && !/_(sum|count)$/.test(n));
    const base = (n: string) => n.replace(/_bucket$/, '');
    expect(lectern.filter((n) => ![...used].some((u) => base(u) === base(n)))).toEqual([]);
  });
});
