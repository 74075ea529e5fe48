import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from '../errors';

const DATABASE_DOWN = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

const DATABASE_DOWN_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i;

/** Whether the database was unreachable; looks through wrappers (Drizzle's DrizzleQueryError keeps pg's error as `cause`). */
function isDatabaseDown(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (DATABASE_DOWN.has(String(code)) || DATABASE_DOWN_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** busboy's words for a multipart body that ends early or has no boundary: the client's fault. */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data)$/;

/** Every failure leaves as `{ message }` with a meaningful status; only the unexpected is logged as an error. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { code?: string }, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ message: error.message, ...error.extra });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return reply.status(413).send({ message: 'The request is too large.' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ message: 'Unsupported content type.' });
    }
    if (!error.statusCode && MALFORMED_MULTIPART.test(error.message)) {
      return reply.status(400).send({ message: 'The multipart body is malformed.' });
    }
    if (error.code === 'ENOSPC') {
      request.log.error({ err: error }, 'out of disk space');
      return reply
        .status(507)
        .send({ message: 'The server is out of storage space. Please try again later.' });
    }
    if (isDatabaseDown(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ message: 'The service is temporarily unavailable. Please try again in a moment.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const message = error instanceof SyntaxError ? 'The request body is not valid JSON.' : error.message;
      return reply.status(error.statusCode).send({ message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}
