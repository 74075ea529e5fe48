import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from './escape-html';
import { askFirstAnswers, firstAnswersTags } from './first-answers';
import { routeHtml } from './route-preloads';

const API_PREFIXES = ['/api/', '/stream/', '/thumbnails/'];

/**
 * Serves the built single-page app: hashed assets cached for a year (precompressed when the build
 * wrote .br/.gz), and `index.html`, with the product name filled in, for every client route (the
 * student pages' with their chunks preloaded: route-preloads.ts, and their first screen's answers:
 * first-answers.ts).
 * API paths that match nothing answer a JSON 404.
 */
export async function installWebApp(app: FastifyInstance, webRoot: string | undefined, productName: string) {
  const indexFile = webRoot && path.join(webRoot, 'index.html');
  const indexHtml =
    indexFile && existsSync(indexFile)
      ? readFileSync(indexFile, 'utf8').replaceAll('%PRODUCT_NAME%', escapeHtml(productName))
      : undefined;
  const htmlFor = indexHtml ? routeHtml(webRoot!, indexHtml) : undefined;
  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: webRoot!,
      wildcard: false,
      preCompressed: true,
      index: false,
      allowedPath: (pathName) => pathName !== '/index.html',
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix)) || request.url === '/api';
    if (isApi || !['GET', 'HEAD'].includes(request.method) || !htmlFor) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    const page = htmlFor(request.url);
    let html = page.html;
    if (page.firstScreen && request.method === 'GET') {
      const tags = firstAnswersTags(await askFirstAnswers(app, request, page.firstScreen));
      html = html.replace('</head>', `${tags}</head>`);
    }
    // A page that may carry a student's answers is theirs alone: no shared cache keeps it.
    return reply
      .header('cache-control', page.firstScreen ? 'private, no-store' : 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
