import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);

/** A JSON response body prepared once and sent many times, plain and gzip-compressed. */
export interface EncodedJson {
  identity: Buffer;
  gzip: Buffer;
}

/** Encodes a JSON text; compression runs on libuv's pool, off the event loop. */
export async function encodeJson(json: string): Promise<EncodedJson> {
  const identity = Buffer.from(json);
  return { identity, gzip: await gzipAsync(identity, { level: 6 }) };
}

/** Sends a prepared body, compressed when the client accepts gzip (browsers do). */
export function sendEncoded(request: FastifyRequest, reply: FastifyReply, body: EncodedJson): FastifyReply {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'gzip').send(body.gzip);
  }
  return reply.send(body.identity);
}
