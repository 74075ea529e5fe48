import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * A strict CSP the built app passes: scripts only from our origin, no inline script. Styles allow
 * inline because Mantine sets CSS variables through style attributes.
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
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
}
