import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import type { AccessCache } from './access-cache';
import { parseRange, SEND_HIGH_WATER_MARK } from './send-file';
import type { PlaybackTokens } from './tokens';

/**
 * What helmet would add on the Fastify route and a segment answer still needs: no MIME sniffing, and
 * no embedding by other origins (a no-cors <video> or <script> elsewhere gets nothing).
 */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

const SEGMENT_URL =
  /^\/stream\/videos\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(v\d{2,4})\/(seg_\d{5}\.ts)\?t=([\w.-]{1,120})$/;

export interface FastPathDeps {
  videosDir: string;
  tokens: PlaybackTokens;
  access: AccessCache;
  now: () => number;
  /** nginx internal prefix when segments are offloaded, else undefined. */
  offloadPrefix: string | undefined;
  cacheControl: string;
}

/**
 * Serves an authorized segment straight from Node's `request` event, before Fastify's routing and
 * hooks: a regex, an HMAC and a map lookup, then the file (or X-Accel-Redirect). At 1.4 MB a
 * segment this is what keeps Lectern near a plain `http` + `fs` server. Anything else (a bad or
 * expired token, a cache miss that needs the database, a refusal, an odd URL) returns false and
 * goes through the Fastify route, which gives the same answers with full error handling.
 */
export function segmentFastPath(deps: FastPathDeps) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url;
    if (!url?.startsWith('/stream/videos/')) return false;
    const m = SEGMENT_URL.exec(url);
    if (!m) return false;
    const [, videoId, rendition, file, token] = m as unknown as [string, string, string, string, string];
    const grant = deps.tokens.verify(videoId, token, deps.now());
    if (!grant || deps.access.peek(videoId, grant) !== true) return false;

    if (deps.offloadPrefix) {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'x-accel-redirect': `${deps.offloadPrefix}/${videoId}/${rendition}/${file}`,
        'cache-control': deps.cacheControl,
        'content-length': 0,
      });
      res.end();
      return true;
    }
    const full = path.join(deps.videosDir, videoId, rendition, file);
    stat(full).then(
      (info) => {
        const size = info.size;
        const range = parseRange(req.headers.range, size);
        const headers: Record<string, string | number> = {
          ...SECURITY_HEADERS,
          'content-type': 'video/mp2t',
          'cache-control': deps.cacheControl,
          'accept-ranges': 'bytes',
        };
        if (range === 'unsatisfiable') {
          res.writeHead(416, { ...headers, 'content-range': `bytes */${size}`, 'content-length': 0 }).end();
          return;
        }
        const [start, end] = range ?? [0, size - 1];
        if (range) headers['content-range'] = `bytes ${start}-${end}/${size}`;
        headers['content-length'] = size === 0 ? 0 : end - start + 1;
        res.writeHead(range ? 206 : 200, headers);
        if (req.method === 'HEAD' || size === 0) return void res.end();
        const stream = createReadStream(full, { start, end, highWaterMark: SEND_HIGH_WATER_MARK });
        stream.on('error', () => res.destroy());
        res.on('close', () => stream.destroy());
        stream.pipe(res);
      },
      () => {
        const body = JSON.stringify({ message: 'Video not found.' });
        res.writeHead(404, {
          ...SECURITY_HEADERS,
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      },
    );
    return true;
  };
}

/** Puts `fastPath` in front of the server's request handler (Fastify's), which gets what it declines. */
export function installFastPath(
  server: Server,
  fastPath: (req: IncomingMessage, res: ServerResponse) => boolean,
): void {
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (fastPath(req, res)) return;
    for (const handler of handlers) handler.call(server, req, res);
  });
}
