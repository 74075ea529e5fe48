import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { mediaMessages } from '../../../contract/media';
import { mediaKeys, StoreUnavailableError, type MediaStores } from '../../storage';
import { SESSION_COOKIE } from '../../../contract/constants';
import {
  answerRawFailure,
  putInFront,
  RAW_SECURITY_HEADERS,
  sendRawJson,
  type RawHandler,
} from '../../http/raw-answer';
import type { PlaybackTokens } from './tokens';
import type { VideoStoreCache } from './video-stores';
import { SEGMENT_LINK, STREAM_VIDEOS } from '../../videos/stream-urls';

export interface FastPathDeps {
  stores: Pick<MediaStores, 'of'>;
  videoStores: VideoStoreCache;
  tokens: PlaybackTokens;
  now: () => number;
  cacheControl: string;
}

const COOKIE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`);

/**
 * The session token of a raw request, as `readToken` finds it (Bearer header, else the cookie). A
 * cookie that is not valid percent-encoding (`%`, `%zz`, a cut UTF-8 sequence) is no token: the
 * Fastify route then answers it as any request without a session.
 */
export function sessionOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  const m = COOKIE.exec(req.headers.cookie ?? '');
  if (!m?.[1]) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
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
  return (req: IncomingMessage, res: ServerResponse, fallback: RawHandler): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url;
    if (!url?.startsWith(STREAM_VIDEOS)) return false;
    const m = SEGMENT_LINK.exec(url);
    if (!m) return false;
    const [, videoId, rendition, file, token] = m as unknown as [string, string, string, string, string];
    if (!deps.tokens.verify(videoId, `${rendition}/${file}`, token, sessionOf(req), deps.now())) return false;
    const kind = deps.videoStores.peek(videoId);
    if (!kind) return false;
    deps.stores
      .of(kind)
      .read(mediaKeys.videoFile(videoId, rendition, file), req.headers.range)
      .then(
        (read) => {
          if (!read) return fallback(req, res); // moved to another store, or gone: the route looks afresh
          const headers: Record<string, string | number> = {
            ...RAW_SECURITY_HEADERS,
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
            sendRawJson(res, 503, mediaMessages.storageUnavailable, { 'retry-after': '5' });
          else sendRawJson(res, 500, 'Something went wrong.');
        },
      )
      // A throw in the answer above would be an unhandled rejection, which ends the process.
      .catch((error: unknown) => answerRawFailure(res, error));
    return true;
  };
}

/** Times a request the fast path answered: its status and seconds from arrival to the connection's end of it. */
export type FastPathObserver = (method: string, status: number, seconds: number) => void;

/**
 * Puts `fastPath` in front of the server's request handler (Fastify's), which gets what it declines.
 * With `observe` (metrics on), each request the fast path serves itself is timed; one it hands back
 * to Fastify later (a segment gone from its store) is timed by Fastify's hook instead.
 */
export function installFastPath(
  server: Server,
  fastPath: (req: IncomingMessage, res: ServerResponse, fallback: RawHandler) => boolean,
  observe?: FastPathObserver,
): void {
  const handedBack = new WeakSet<IncomingMessage>();
  let lateFallback: RawHandler | undefined; // made once: `rest` is the same for every request
  putInFront(server, (req, res, rest) => {
    const started = observe ? performance.now() : 0;
    lateFallback ??= (r, s) => {
      handedBack.add(r);
      rest(r, s);
    };
    if (!fastPath(req, res, observe ? lateFallback : rest)) return false;
    if (observe)
      res.once('close', () => {
        if (!handedBack.has(req)) observe(req.method!, res.statusCode, (performance.now() - started) / 1000);
      });
    return true;
  });
}
