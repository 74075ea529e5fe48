import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import { splitRouteKey } from '../../contract/route-kit';
import type { Histogram } from 'prom-client';
import { UNMATCHED_ROUTE, WEB_APP_ROUTE, type Metrics } from './metrics';

type Child = ReturnType<Histogram<'route' | 'method' | 'status_class'>['labels']>;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export const statusClass = (status: number) =>
  status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : status >= 200 ? '2xx' : '1xx';

/**
 * The request histogram's children by label set, made once: labelling by object costs a sort and a
 * string join per request, a map lookup does not. The labels are bounded (table routes x methods x
 * five classes), so the map is too.
 */
export function requestObserver(metrics: Metrics) {
  const children = new Map<string, Child>();
  return (route: string, method: string, status: number, seconds: number) => {
    const m = METHODS.has(method) ? method : 'OTHER';
    const cls = statusClass(status);
    const key = `${route} ${m} ${cls}`;
    let child = children.get(key);
    if (!child) {
      child = metrics.requestDuration.labels({ route, method: m, status_class: cls });
      children.set(key, child);
    }
    child.observe(seconds);
  };
}

/**
 * Times every request Fastify answers. The route label is the route table's template (the entry the
 * route was registered from), the web app's one label, or one label for anything unmatched: never
 * the raw URL, so a scanner cannot blow up the series count.
 *
 * Each route gets its own `onResponse` hook, its label worked out once when it is registered: a
 * global hook would read `request.routeOptions` per request, which builds an object each time (and
 * was most of what metrics cost the cheapest route). Requests that match no route reach only the
 * not-found handler, which route hooks do not: one global hook takes those and returns at once for
 * the rest.
 */
export function installRequestMetrics(app: FastifyInstance, observe: ReturnType<typeof requestObserver>) {
  app.addHook('onRoute', (route) => {
    const key = (route.config as { routeKey?: string } | undefined)?.routeKey;
    const label = key ? splitRouteKey(key).path : WEB_APP_ROUTE;
    const timeIt: onResponseHookHandler = (request, reply, done) => {
      observe(label, request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    // A new array, never a push: Fastify copies a GET route's options for its HEAD twin.
    route.onResponse = [...[route.onResponse ?? []].flat(), timeIt];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) {
      const label = reply.statusCode === 404 ? UNMATCHED_ROUTE : WEB_APP_ROUTE;
      observe(label, request.method, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });
}
