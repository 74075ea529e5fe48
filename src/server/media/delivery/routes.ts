import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mediaMessages } from '../../../contract/media';
import type { SessionUser } from '../../accounts/sessions';
import type { AppContext } from '../../context';
import { videos } from '../../db/schema';
import { conflict, forbidden, notFound, unauthorized, unavailable } from '../../errors';
import { registerRoutes } from '../../http/route-table';
import type { Auth } from '../../plugins/auth';
import { closedMessage, openingState } from '../../plugins/opening-hours';
import { decideWatch } from '../../videos/access';
import { PLAYLIST, SEGMENT_PATTERN } from '../packaging/hls';
import { mediaKeys, UUID_PATTERN, type MediaStore } from '../store';
import type { AccessCache } from './access-cache';
import type { PlaylistStore } from './playlists';
import { sendObject } from './send-file';
import type { PlaybackTokens } from './tokens';
import type { VideoStoreCache } from './video-stores';

export interface DeliveryDeps {
  ctx: AppContext;
  auth: Auth;
  videoStores: VideoStoreCache;
  tokens: PlaybackTokens;
  access: AccessCache;
  playlists: PlaylistStore;
  keys: Map<string, Buffer>;
}

/** nginx's internal location for offloaded segments (docs/nginx-offload.md). */
export const OFFLOAD_PREFIX = '/_lectern_media';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const PRIVATE_PLAYLIST = 'private, no-cache';
/** Segments are encrypted: useless without the key, so any cache may keep them for good. */
export const SEGMENT_CACHE = 'public, max-age=31536000, immutable';
const RENDITION = /^v\d{2,4}$/;

/** Master playlist, child playlists, segments, key and poster under /stream/videos/:id. */
export function deliveryRoutes(app: FastifyInstance, deps: DeliveryDeps): void {
  const { ctx, auth, videoStores, tokens, access, playlists } = deps;
  const offload = ctx.config.segmentOffload === 'nginx';

  /** The store of a video as its row says now (the fast path's cached answer may be older). */
  async function storeOf(videoId: string): Promise<MediaStore> {
    const kind = await videoStores.load(videoId);
    if (!kind) throw notFound(mediaMessages.videoNotFound);
    return ctx.media.of(kind);
  }

  async function requireWatch(user: SessionUser, videoId: string): Promise<void> {
    if (!UUID_PATTERN.test(videoId)) throw notFound(mediaMessages.videoNotFound);
    const decision = await decideWatch(ctx.db, user, videoId, ctx.clock.now(), ctx.config.openTimeZone);
    if (decision === 'not-found') throw notFound(mediaMessages.videoNotFound);
    if (decision === 'no-course-access') throw forbidden(mediaMessages.noCourseAccess);
    if (decision === 'no-video-access') throw forbidden(mediaMessages.noVideoAccess);
  }

  registerRoutes(app, auth, {
    // The session comes from the table's `viewer` guard (a full session, 401/403 otherwise).
    'GET /stream/videos/:id/master.m3u8': ({ session, params, reply }) =>
      master(session.user, params.id, reply),
    'GET /stream/videos/:id/:rendition/:file': ({ params, query, request, reply }) =>
      childOrSegment(params, query.t, request, reply),
    'GET /stream/videos/:id/key': ({ params, query, request, reply }) =>
      key(params.id, query.t, request, reply),
    'GET /stream/videos/:id/poster.jpg': async ({ session, params, request, reply }) => {
      await requireWatch(session.user, params.id);
      return sendObject(request, reply, await storeOf(params.id), mediaKeys.poster(params.id), {
        contentType: 'image/jpeg',
        cacheControl: 'private, max-age=3600',
      });
    },
  });

  /** For students the opening hours first (503 outside them), then the access rule. */
  async function master(user: SessionUser, videoId: string, reply: FastifyReply) {
    let validUntil: number | undefined;
    if (user.role === 'student') {
      const state = openingState(ctx.clock.now(), ctx.config.openHours, ctx.config.openTimeZone);
      if (!state.open) {
        throw unavailable(closedMessage(state, ctx.config.productName), {
          opensAt: state.opensAt?.toISOString() ?? null,
        });
      }
      validUntil = state.closesAt?.getTime();
    }
    await requireWatch(user, videoId);
    const [video] = await ctx.db
      .select({ status: videos.status, renditions: videos.renditions, store: videos.store })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!video) throw notFound(mediaMessages.videoNotFound);
    if (video.status === 'processing') throw conflict(mediaMessages.stillProcessing);
    if (video.status !== 'ready' || !video.renditions.length) throw conflict(mediaMessages.processingFailed);
    access.remember(videoId, user.id, { allowed: true, validUntil });
    videoStores.remember(videoId, video.store);
    const token = tokens.sign(videoId, { userId: user.id, role: user.role }, ctx.clock.now().getTime());
    const body = await playlists.master(ctx.media.of(video.store), videoId, video.renditions, token);
    return reply.type(PLAYLIST_TYPE).header('cache-control', PRIVATE_PLAYLIST).send(body);
  }

  /** The hot path: a token check and a cache lookup, no database, then the file. */
  async function childOrSegment(
    { id, rendition, file }: { id: string; rendition: string; file: string },
    token: string | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const isPlaylist = file === PLAYLIST;
    if (!RENDITION.test(rendition) || !(isPlaylist || SEGMENT_PATTERN.test(file)) || !UUID_PATTERN.test(id)) {
      throw notFound(mediaMessages.videoNotFound);
    }
    const grant = tokens.verify(id, token, ctx.clock.now().getTime());
    if (!grant) throw forbidden(mediaMessages.badToken);
    if (!(await access.check(id, grant))) throw forbidden(mediaMessages.noVideoAccess);
    const store = await storeOf(id);
    if (isPlaylist) {
      const text = await playlists.child(store, id, rendition, token!);
      if (text === undefined) throw notFound(mediaMessages.videoNotFound);
      return reply.type(PLAYLIST_TYPE).header('cache-control', PRIVATE_PLAYLIST).send(text);
    }
    if (offload && store.kind === 'local') {
      return reply
        .header('x-accel-redirect', `${OFFLOAD_PREFIX}/${id}/${rendition}/${file}`)
        .header('cache-control', SEGMENT_CACHE)
        .send();
    }
    return sendObject(request, reply, store, mediaKeys.videoFile(id, rendition, file), {
      contentType: 'video/mp2t',
      cacheControl: SEGMENT_CACHE,
    });
  }

  /** The key needs the token and the session of the same user: a copied playlist is not enough. */
  async function key(
    videoId: string,
    token: string | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const grant = tokens.verify(videoId, token, ctx.clock.now().getTime());
    if (!grant) throw forbidden(mediaMessages.badToken);
    const session = await auth.authOf(request);
    if (!session) throw unauthorized();
    if (session.user.id !== grant.userId) throw forbidden(mediaMessages.sessionMismatch);
    if (!(await access.check(videoId, grant))) throw forbidden(mediaMessages.noVideoAccess);
    let key = deps.keys.get(videoId);
    if (!key) {
      const [row] = await ctx.db
        .select({ hlsKey: videos.hlsKey })
        .from(videos)
        .where(eq(videos.id, videoId))
        .limit(1);
      if (!row?.hlsKey) throw notFound(mediaMessages.videoNotFound);
      key = Buffer.from(row.hlsKey, 'hex');
      if (deps.keys.size > 10_000) deps.keys.clear();
      deps.keys.set(videoId, key);
    }
    return reply.type('application/octet-stream').header('cache-control', 'private, no-store').send(key);
  }
}
