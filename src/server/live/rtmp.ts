import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { eq } from 'drizzle-orm';
import { rtmpMessages, type RtmpCallbackBody } from '../../contract/live-ingest';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { liveClasses, liveIngests } from '../db/schema';
import { forbidden, tooManyRequests } from '../errors';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { classEnd } from '../http/opening-gate';
import { dueAt } from './ingest';
import type { LiveClassRow } from './presenter';
import { openStreamKey } from './stream-keys';

/** Publish attempts one encoder address may make through one nginx per minute. */
export const RTMP_ATTEMPTS_PER_MINUTE = 30;
const STREAM_KEY = /^[0-9a-f]{32}$/;

const sameKey = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The class whose stream key `key` is, among those not ended whose listener is open (from
 * LIVE_LEAD_MS before the start); `streamingNow` also asks that its time is not up. The keys are
 * wrapped per class: each candidate's is opened and compared in constant time.
 */
export async function classOfStreamKey(
  ctx: AppContext,
  key: string,
  streamingNow: boolean,
): Promise<LiveClassRow | undefined> {
  if (!STREAM_KEY.test(key)) return undefined;
  const now = ctx.clock.now();
  const candidates = await ctx.db.select().from(liveClasses).where(dueAt(now));
  return candidates.find(
    (row) =>
      (!streamingNow || classEnd(row).getTime() > now.getTime()) &&
      sameKey(openStreamKey(ctx.signingKey, row.id, row.streamKey), key),
  );
}

/** Records that an RTMP encoder is on the air for `classId` (since `at`), or gone (null). */
export async function setRtmpPublisher(ctx: AppContext, classId: string, at: Date | null): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db
    .insert(liveIngests)
    .values({ classId, rtmpSince: at, updatedAt: now })
    .onConflictDoUpdate({ target: liveIngests.classId, set: { rtmpSince: at, updatedAt: now } });
}

/**
 * nginx's rtmp callbacks (docs/LIVE.md "RTMP through nginx"). `on_publish` carries the stream key
 * in its form body: a key of a class that may stream now is answered 302 with the class's id as
 * `Location`, which nginx's rtmp module takes as the stream's new name (so the key is in no later
 * stream name, log line or ffmpeg command line; the ingest node reads `LIVE_RTMP_PULL/<class id>`);
 * anything else is a 403 and nginx drops the encoder before it accepts a byte of media.
 * `on_publish_done` (the key again) marks the encoder gone. Both are limited per encoder address.
 */
export const rtmpRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  // nginx posts application/x-www-form-urlencoded; only these routes read it (this plugin's scope).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  async function limit(ip: string, body: RtmpCallbackBody) {
    const hit = await ctx.rateCounter.hit(`rtmp:${ip}|${body.addr ?? ''}`, 60_000);
    if (hit.count > RTMP_ATTEMPTS_PER_MINUTE)
      throw tooManyRequests(rtmpMessages.tooMany, Math.ceil(hit.resetInMs / 1000));
  }

  registerRoutes(app, auth, {
    'POST /api/live/rtmp/publish': async ({ request, reply, body }) => {
      await limit(request.ip, body);
      const row = await classOfStreamKey(ctx, body.name, true);
      if (!row) {
        // The name is a (wrong) key: never logged.
        ctx.logger.warn(
          { addr: body.addr },
          'live ingest: an RTMP encoder was refused (no class has its key)',
        );
        throw forbidden(rtmpMessages.refused);
      }
      await setRtmpPublisher(ctx, row.id, ctx.clock.now());
      ctx.logger.info({ classId: row.id, addr: body.addr }, 'live ingest: an RTMP encoder is on the air');
      return reply.status(302).header('location', row.id).send({ message: rtmpMessages.accepted });
    },
    'POST /api/live/rtmp/done': async ({ request, body }) => {
      await limit(request.ip, body);
      const row = await classOfStreamKey(ctx, body.name, false);
      if (!row) throw forbidden(rtmpMessages.refused);
      await ctx.db
        .update(liveIngests)
        .set({ rtmpSince: null, updatedAt: ctx.clock.now() })
        .where(eq(liveIngests.classId, row.id));
      ctx.logger.info({ classId: row.id, addr: body.addr }, 'live ingest: the RTMP encoder left');
      return { message: rtmpMessages.left };
    },
  });
};

export interface NginxRtmpOptions {
  /** Lectern's base URL as nginx reaches it (http://HOST:PORT). */
  lectern: string;
  /** The rtmp module's listen (1935). */
  listen: string;
  /** RTMPS: the TLS listen (1936) and its certificate; omitted, no `stream` block. */
  rtmps?: { listen: string; certificate: string; certificateKey: string };
  /** Who may read streams (the ingest nodes): LIVE_RTMP_PULL's host. */
  players: readonly string[];
}

/**
 * `nginx:config --rtmp`'s options from the settings: Lectern where nginx reaches it (HOST, or
 * 127.0.0.1 when HOST listens everywhere), players from LIVE_RTMP_PULL's host, RTMPS on 1936 with
 * `--rtmps-cert`/`--rtmps-key` or Lectern's own TLS_CERT/TLS_KEY.
 */
export function rtmpConfigOptions(
  config: Pick<Config, 'host' | 'port' | 'tls' | 'live'>,
  values: { lectern?: string; listen?: string; 'rtmps-cert'?: string; 'rtmps-key'?: string },
): NginxRtmpOptions {
  const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host;
  const certificate = values['rtmps-cert'] ?? config.tls?.cert;
  const certificateKey = values['rtmps-key'] ?? config.tls?.key;
  const player = new URL(config.live.rtmpPull).hostname.replace(/^\[|\]$/g, '');
  return {
    lectern: `http://${values.lectern ?? `${host.includes(':') ? `[${host}]` : host}:${config.port}`}`,
    listen: values.listen ?? '1935',
    rtmps: certificate && certificateKey ? { listen: '1936', certificate, certificateKey } : undefined,
    players: [player === 'localhost' ? '127.0.0.1' : player],
  };
}

/**
 * The nginx configuration for RTMP and RTMPS encoders (`npm run cli -- nginx:config --rtmp`), for
 * nginx.conf's main context (Debian: a file in /etc/nginx/modules-enabled/ after mod-rtmp.conf).
 * The tests run this very text.
 */
export function nginxRtmp(o: NginxRtmpOptions): string {
  const base = o.lectern.replace(/\/+$/, '');
  const rtmps = o.rtmps
    ? `
# RTMPS (OBS: rtmps://HOST:${o.rtmps.listen}/live): TLS ends here, the stream goes on to the rtmp block.
stream {
    server {
        listen ${o.rtmps.listen} ssl;
        ssl_certificate ${o.rtmps.certificate};
        ssl_certificate_key ${o.rtmps.certificateKey};
        ssl_protocols TLSv1.2 TLSv1.3;
        proxy_pass ${o.listen.includes(':') ? o.listen : `127.0.0.1:${o.listen}`};
    }
}
`
    : `
# RTMPS: run nginx:config --rtmp with --rtmps-cert FILE --rtmps-key FILE (or set TLS_CERT/TLS_KEY)
# for a stream block taking TLS on 1936 to this rtmp block.
`;
  return `# Generated by \`npm run cli -- nginx:config --rtmp\` (docs/LIVE.md "RTMP through nginx").
# nginx.conf's main context, after load_module ngx_rtmp_module.so (and ngx_stream_module.so for RTMPS).
# Keep nginx's error_log at notice or above: at info the rtmp module logs stream names (stream keys).

rtmp {
    # No rtmp access log: its format carries the stream name, which is a stream key when it arrives.
    access_log off;
    server {
        listen ${o.listen};
        chunk_size 4096;
        # An encoder that stops sending is dropped; its class's reconnect grace runs in Lectern.
        drop_idle_publisher 10s;
        application live {
            live on;
            # Reading a stream nobody publishes is refused at once (Lectern's reader tries again).
            idle_streams off;
            # Lectern checks the stream key (POST body, never a URL): 403 before any media is taken;
            # 302 to the class's id, nginx's new name for the stream.
            notify_method post;
            on_publish ${base}/api/live/rtmp/publish;
            on_publish_done ${base}/api/live/rtmp/done;
            # Only Lectern's ingest node reads streams (a class's id is no secret).
${o.players.map((p) => `            allow play ${p};`).join('\n')}
            deny play all;
        }
    }
}
${rtmps}`;
}
