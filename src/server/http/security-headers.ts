import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * A strict CSP the built app passes: scripts only from our origin, no inline script. Styles allow
 * inline because Mantine sets CSS variables through style attributes. `mediaOrigins`: where else
 * the player fetches media from (the bucket or CDN of SEGMENT_DELIVERY=s3). JSON answers are not stored.
 */
export async function installSecurityHeaders(
  app: FastifyInstance,
  mediaOrigins: string[] = [],
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', ...mediaOrigins],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", ...mediaOrigins],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    // frame-ancestors 'none' for browsers too old for CSP 2: DENY, not helmet's SAMEORIGIN.
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  // A JSON answer is one person's (their courses, students, codes) or of the moment (time, probes):
  // no browser disk or shared cache keeps it. Answers that pick their own caching (playlists,
  // posters, captions, thumbnails, the web app's files) set Cache-Control themselves and keep it.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control') && isJson(reply.getHeader('content-type')))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('application/json');
}
