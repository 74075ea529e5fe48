import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * What helmet would add on a Fastify route and an answer written outside Fastify still needs: no
 * MIME sniffing, and no embedding by other origins (a no-cors <video> or <script> elsewhere gets nothing).
 */
export const RAW_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

/** A `{ message }` answer written on the raw response, for code that runs before Fastify's handler. */
export function sendRawJson(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    ...RAW_SECURITY_HEADERS,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

export type RawHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts `front` before the server's request listeners (Fastify's, and whatever was put in front of
 * them before): it answers a request itself and returns true, or returns false to pass it on. `rest`
 * hands a request it took on to those listeners later.
 */
export function putInFront(
  server: Server,
  front: (req: IncomingMessage, res: ServerResponse, rest: RawHandler) => boolean,
): void {
  const handlers = server.listeners('request') as RawHandler[];
  server.removeAllListeners('request');
  const rest: RawHandler = (req, res) => {
    for (const handler of handlers) handler.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let taken: boolean;
    try {
      taken = front(req, res, rest);
    } catch (error) {
      // This listener runs outside Fastify's error handling: a throw here would end the process.
      answerRawFailure(res, error);
      return;
    }
    if (!taken) rest(req, res);
  });
}

/** The request's fault (a malformed cookie, header or escape: 400) answered as `{ message }`, or the connection cut when the answer had begun. */
export function answerRawFailure(res: ServerResponse, error: unknown): void {
  if (res.headersSent) return void res.destroy();
  const clientFault = error instanceof URIError || error instanceof TypeError || error instanceof RangeError;
  if (clientFault) sendRawJson(res, 400, BAD_REQUEST_MESSAGE);
  else sendRawJson(res, 500, 'Something went wrong on our side. Please try again.');
}

export const BAD_REQUEST_MESSAGE = 'The request is malformed.';
