import type { FastifyInstance } from 'fastify';
import { serverMessages } from '../../contract/messages';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from another site: the session cookie would ride
 * along (CSRF). Requests without Origin or Sec-Fetch-Site (curl, scripts with a bearer token) pass.
 */
export function installOriginCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    let crossOrigin = false;
    if (origin) {
      try {
        crossOrigin = new URL(origin).host !== request.headers.host;
      } catch {
        crossOrigin = true; // "null" and other opaque origins
      }
    } else if (request.headers['sec-fetch-site'] === 'cross-site') {
      crossOrigin = true;
    }
    if (crossOrigin) return reply.status(403).send({ message: serverMessages.crossOrigin });
  });
}
