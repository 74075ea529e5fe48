import { connect, type Socket } from 'node:net';

/** What a server answered to raw bytes, or how the connection ended without an answer. */
export interface RawReply {
  /** The status code, or 0 when no status line came back. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** 'answered', or why there was no complete answer (the server closed or reset, or the time ran out). */
  ended: 'answered' | 'closed' | 'reset' | 'timeout';
}

export interface RawOptions {
  /** The bytes are sent in these pieces, `pauseMs` apart (a slow sender). */
  pieces?: number;
  pauseMs?: number;
  /** Stop sending after this many bytes and wait (a body that stops halfway). */
  stopAfter?: number;
  timeoutMs?: number;
  /** Stop waiting for an answer when this aborts (as at the time-out). */
  until?: AbortSignal;
  /** The loopback address to send from (127.0.0.2, ...): another client, as the server sees it. */
  from?: string;
}

/**
 * Sends `request` byte for byte over a fresh TCP connection (no client library between: malformed
 * escapes, duplicate and odd headers arrive as written) and reads one answer. `inject` and fetch
 * cannot do this: inject skips the raw request listeners, and fetch refuses malformed headers.
 */
export async function sendRaw(
  url: string,
  request: Buffer | string,
  options: RawOptions = {},
): Promise<RawReply> {
  const bytes = Buffer.isBuffer(request) ? request : Buffer.from(request, 'latin1');
  const sent = options.stopAfter === undefined ? bytes : bytes.subarray(0, options.stopAfter);
  const pieces = Math.max(1, options.pieces ?? 1);
  const socket = await open(url, options.from);
  const reply = answerOn(socket, isHead(bytes), options.timeoutMs, options.until);
  // A server may answer before the last piece (a refusal before the body) and close; a piece written
  // after that comes back as a reset, and Node drops the socket with the answer unread. A slow sender
  // stops once an answer has begun, as a browser does, and lets the event loop read the socket (its
  // poll phase runs before setImmediate's, where a timer runs before it) before each next piece.
  let heard = false;
  socket.once('data', () => (heard = true));
  const size = Math.ceil(sent.length / pieces);
  for (let i = 0; i < sent.length && !socket.destroyed && !heard; i += size) {
    socket.write(sent.subarray(i, i + size));
    if (options.pauseMs && i + size < sent.length) {
      await new Promise((r) => setTimeout(r, options.pauseMs));
      await new Promise((r) => setImmediate(r));
    }
  }
  return reply;
}

/**
 * An attacker's burst: every request goes on its own connection with all but its last byte, and
 * once all are waiting, every last byte is written in one loop. The server then has them all
 * before it has answered any, which a loop of fetches (or even Promise.all) does not guarantee.
 */
export async function burst(
  url: string,
  requests: Buffer[],
  { timeoutMs = 60_000, from }: { timeoutMs?: number; from?: string } = {},
): Promise<RawReply[]> {
  const sockets = await Promise.all(requests.map(() => open(url, from)));
  const replies = sockets.map((socket, i) => answerOn(socket, isHead(requests[i]!), timeoutMs));
  await Promise.all(
    sockets.map(
      (socket, i) =>
        new Promise<void>((resolve) => socket.write(requests[i]!.subarray(0, -1), () => resolve())),
    ),
  );
  for (const [i, socket] of sockets.entries()) socket.write(requests[i]!.subarray(-1));
  return Promise.all(replies);
}

const isHead = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === 'HEAD ';

function open(url: string, from?: string): Promise<Socket> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress: from }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads one answer from `socket`, or how the connection ended without one. */
function answerOn(
  socket: Socket,
  bodiless: boolean,
  timeoutMs = 10_000,
  until?: AbortSignal,
): Promise<RawReply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (ended: RawReply['ended']) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      until?.removeEventListener('abort', stop);
      socket.destroy();
      resolve(parseReply(Buffer.concat(chunks), ended, bodiless));
    };
    const stop = () => finish('timeout');
    const timer = setTimeout(stop, timeoutMs);
    if (until?.aborted) stop();
    else until?.addEventListener('abort', stop, { once: true });
    socket.on('data', (d) => {
      chunks.push(d);
      if (isComplete(Buffer.concat(chunks), bodiless)) finish('answered');
    });
    socket.on('end', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    socket.on('error', () => finish('reset'));
  });
}

function splitHead(raw: Buffer): { head: string; body: Buffer } | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  return { head: raw.subarray(0, end).toString('latin1'), body: raw.subarray(end + 4) };
}

function headersOf(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** A whole answer: headers, and the body its content-length or final chunk says (none for HEAD). */
function isComplete(raw: Buffer, bodiless = false): boolean {
  const parts = splitHead(raw);
  if (!parts) return false;
  const headers = headersOf(parts.head);
  if (bodiless || /^HTTP\/1\.1 (1\d\d|204|304)/.test(parts.head)) return true;
  if (headers['content-length'] !== undefined) return parts.body.length >= Number(headers['content-length']);
  if (headers['transfer-encoding']?.includes('chunked'))
    return parts.body.includes('\r\n0\r\n\r\n') || parts.body.subarray(0, 5).toString() === '0\r\n\r\n';
  return false;
}

function parseReply(raw: Buffer, ended: RawReply['ended'], bodiless: boolean): RawReply {
  const parts = splitHead(raw);
  if (!parts) return { status: 0, headers: {}, body: '', ended };
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(parts.head)?.[1] ?? 0);
  const headers = headersOf(parts.head);
  let body = parts.body;
  if (headers['transfer-encoding']?.includes('chunked')) body = dechunk(body);
  return {
    status,
    headers,
    body: body.toString('utf8'),
    ended: isComplete(raw, bodiless) ? 'answered' : ended,
  };
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(at, lineEnd).toString(), 16);
    if (!size) break;
    out.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** A request as bytes: the request line, the headers in order (duplicates kept), then the body. */
export function rawRequest(
  method: string,
  target: string,
  headers: [string, string][],
  body: Buffer | string = '',
): Buffer {
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  const lines = [`${method} ${target} HTTP/1.1`, ...headers.map(([k, v]) => `${k}: ${v}`)];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/** A JSON POST as bytes, with the session cookie when given (the connection closes after it). */
export function jsonPost(url: string, path: string, body: unknown, token?: string): Buffer {
  const payload = Buffer.from(JSON.stringify(body));
  return rawRequest(
    'POST',
    path,
    [
      ['Host', new URL(url).host],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(payload.length)],
      ...(token ? [['Cookie', `token=${token}`] as [string, string]] : []),
      ['Connection', 'close'],
    ],
    payload,
  );
}
