import type { FastifyInstance } from 'fastify';
import { putInFront, sendRawJson } from '../http/raw-answer';
import { registerRoutes } from '../http/route-table';
import type { Auth } from '../http/auth';
import type { Readiness } from './readiness';

/**
 * `GET /healthz` (the process serves) and `GET /readyz` (its dependencies answer, and it is not
 * shutting down). Registered at the root: outside the opening gate, sessions and rate limits,
 * so a balancer or monitor can ask any time. Nothing in either answer is a secret.
 */
export function healthRoutes(app: FastifyInstance, auth: Auth, readiness: Readiness): void {
  registerRoutes(app, auth, {
    'GET /healthz': ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
    'GET /readyz': async ({ reply }) => {
      const report = await readiness.report();
      reply.header('cache-control', 'no-store');
      if (report.status !== 'ready') reply.status(503);
      return report;
    },
  });
  drainGate(app, readiness);
}

/** What a GET or HEAD gets from a node that is shutting down (the balancer sends it to another). */
export const DRAINING_MESSAGE = 'This server is restarting. Try again in a moment.';
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Once draining (SIGTERM), in front of every other request listener (the segment fast path's too):
 * - every answer closes its connection, so a balancer's kept-alive connection is not reused for a
 *   request the closing listener would then cut;
 * - a GET or HEAD other than the probes is answered 503 at once. nginx (open source: no active health
 *   checks) sends it to the other node (`proxy_next_upstream http_503`) and takes this one out for its
 *   `fail_timeout`, so no new connection is on its way when the listener closes: one the kernel had
 *   accepted but Node not yet would be reset, and a POST on it could not be sent again.
 * A POST is still served: nginx would not resend it elsewhere once it reached this node.
 */
function drainGate(app: FastifyInstance, readiness: Readiness): void {
  putInFront(app.server, (req, res) => {
    if (!readiness.draining) return false;
    res.setHeader('connection', 'close');
    const safe = req.method === 'GET' || req.method === 'HEAD';
    if (!safe || PROBES.has(req.url!.split('?')[0]!)) return false;
    sendRawJson(res, 503, DRAINING_MESSAGE, { 'retry-after': '1', 'cache-control': 'no-store' });
    return true;
  });
}
