import type { FastifyReply, FastifyRequest } from 'fastify';
import { mediaMessages } from '../../../contract/media';
import { notFound } from '../../errors';
import type { MediaStore } from '../../storage';

/** Streams an object of `store` with range support, or 404 when it is not there. */
export async function sendObject(
  request: FastifyRequest,
  reply: FastifyReply,
  store: MediaStore,
  key: string,
  headers: { contentType: string; cacheControl: string },
): Promise<FastifyReply> {
  const read = await store.read(key, request.headers.range);
  if (!read) throw notFound(mediaMessages.videoNotFound);
  reply
    .header('content-type', headers.contentType)
    .header('cache-control', headers.cacheControl)
    .header('accept-ranges', 'bytes');
  if (read.status === 416) return reply.status(416).header('content-range', `bytes */${read.size}`).send();
  if (read.status === 206)
    reply.status(206).header('content-range', `bytes ${read.start}-${read.end}/${read.size}`);
  reply.header('content-length', read.size === 0 ? 0 : read.end - read.start + 1);
  if (request.method === 'HEAD' || !read.body) {
    read.body?.destroy();
    return reply.send();
  }
  return reply.send(read.body);
}
