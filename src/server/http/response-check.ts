import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { routes } from '../../contract/routes';

/** A body as sent: text, or bytes in their content-encoding. */
function bodyText(payload: unknown, encoding: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (!Buffer.isBuffer(payload)) return undefined; // a stream: a file, not JSON
  if (encoding === 'br') return brotliDecompressSync(payload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(payload).toString('utf8');
  return payload.toString('utf8');
}

/**
 * Tests only (AppOptions.checkResponses): every successful answer must match its route table entry,
 * the JSON its response schema and a file one of its content types. A mismatch is a 500 naming the
 * route and the first problem, so the test that made the request fails where it happened.
 */
export function installResponseCheck(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.routeOptions.config.routeKey;
    if (!key || reply.statusCode < 200 || reply.statusCode >= 300 || request.method === 'HEAD')
      return payload;
    const entry = routes[key];
    if ('file' in entry) {
      const type = String(reply.getHeader('content-type') ?? '').split(';')[0]!;
      if (reply.getHeader('x-accel-redirect') || (entry.file as readonly string[]).includes(type))
        return payload;
      throw new Error(`${key} answered ${type || 'no content type'}, not one of ${entry.file.join(', ')}`);
    }
    if ('download' in entry) {
      const type = String(reply.getHeader('content-type') ?? '').split(';')[0]!;
      if ((entry.download as readonly string[]).includes(type)) return payload;
    }
    if ('status' in entry && reply.statusCode !== entry.status) {
      throw new Error(`${key} answered ${reply.statusCode}, the table says ${entry.status}`);
    }
    const text = bodyText(payload, reply.getHeader('content-encoding'));
    if (text === undefined) throw new Error(`${key} answered a stream where the table says JSON`);
    const result = entry.response.safeParse(JSON.parse(text));
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new Error(`${key} answered JSON unlike its schema at ${issue.path.join('.')}: ${issue.message}`);
    }
    return payload;
  });
}
