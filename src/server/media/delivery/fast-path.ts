import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { mediaMessages } from '../../../contract/media';
import { mediaKeys, StoreUnavailableError, type MediaStores } from '../store';
import { SESSION_COOKIE } from '../../../contract/constants';
import type { PlaybackTokens } from './tokens';
import type { VideoStoreCache } from './video-stores';

/**
 * What helmet would add on the Fastify route and a segment answer still needs: no MIME sniffing, and
 * no embedding by other origins (a no-cors <video> or <script> elsewhere gets nothing).
 */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

const SEGMENT_URL =
  /^\/stream\/videos\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(v\d{2,4})\/(seg_\d{5}(?:_k)?\.ts)\?t=([\w.-]{1,120})$/;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface FastPathDeps {
  stores: Pick<MediaStores, 'of'>;
  videoStores: VideoStoreCache;
  tokens: PlaybackTokens;
  now: () => number;
  cacheControl: string;
}

function sendJson(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

const COOKIE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`);

/** The session token of a raw request, as `readToken` finds it (Bearer header, else the cookie). */
function sessionOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  const m = COOKIE.exec(req.headers.cookie ?? '');
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/**
 * Serves a segment straight from Node's `request` event, before Fastify's routing and hooks: a
 * regex, an HMAC over the link and the session cookie, a map lookup (which store), then the object's
 * bytes. No database: the link carries the access decision for its lifetime and the keys (checked
 * on every request) carry the revocation. Anything else (a bad or expired link, an odd URL, a
 * segment missing from the remembered store) goes to `fallback`, the Fastify route, which gives the
 * same answers with full error handling.
 */
export function segmentFastPath(deps: FastPathDeps) {
  return (req: IncomingMessage, res: ServerResponse, fallback: Handler): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url;
    if (!url?.startsWith('/stream/videos/')) return false;
    const m = SEGMENT_URL.exec(url);
    if (!m) return false;
    const [, videoId, rendition, file, token] = m as unknown as [string, string, string, string, string];
    if (!deps.tokens.verify(videoId, token, sessionOf(req), deps.now())) return false;
    const kind = deps.videoStores.peek(videoId);
    if (!kind) return false;
    deps.stores
      .of(kind)
      .read(mediaKeys.videoFile(videoId, rendition, file), req.headers.range)
      .then(
        (read) => {
          if (!read) return fallback(req, res); // moved to another store, or gone: the route looks afresh
          const headers: Record<string, string | number> = {
            ...SECURITY_HEADERS,
            'content-type': 'video/mp2t',
            'cache-control': deps.cacheControl,
            'accept-ranges': 'bytes',
          };
          if (read.status === 416) {
            res
              .writeHead(416, { ...headers, 'content-range': `bytes */${read.size}`, 'content-length': 0 })
              .end();
            return;
          }
          if (read.status === 206) headers['content-range'] = `bytes ${read.start}-${read.end}/${read.size}`;
          headers['content-length'] = read.size === 0 ? 0 : read.end - read.start + 1;
          res.writeHead(read.status, headers);
          const body = read.body;
          if (req.method === 'HEAD' || !body) {
            body?.destroy();
            return void res.end();
          }
          body.on('error', () => res.destroy());
          res.on('close', () => body.destroy());
          body.pipe(res);
        },
        (error: unknown) => {
          if (error instanceof StoreUnavailableError)
            sendJson(res, 503, mediaMessages.storageUnavailable, { 'retry-after': '5' });
          else sendJson(res, 500, 'Something went wrong.');
        },
      );
    return true;
  };
}

/** Puts `fastPath` in front of the server's request handler (Fastify's), which gets what it declines. */
export function installFastPath(
  server: Server,
  fastPath: (req: IncomingMessage, res: ServerResponse, fallback: Handler) => boolean,
): void {
  const handlers = server.listeners('request') as Handler[];
  server.removeAllListeners('request');
  const fallback: Handler = (req, res) => {
    for (const handler of handlers) handler.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!fastPath(req, res, fallback)) fallback(req, res);
  });
}
