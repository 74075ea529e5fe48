import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mediaMessages } from '../../../contract/media';
import type { SessionUser } from '../../accounts/sessions';
import { recordAccessEvents } from '../../audit/events';
import type { AppContext } from '../../context';
import { videos } from '../../db/schema';
import { conflict, forbidden, HttpError, notFound, tooManyRequests, unavailable } from '../../errors';
import { registerRoutes } from '../../http/route-table';
import { readToken, type Auth } from '../../plugins/auth';
import { closedMessage, openingState } from '../../plugins/opening-hours';
import { decideWatch } from '../../videos/access';
import { PLAYLIST, SEGMENT_PATTERN } from '../packaging/hls';
import { segmentKey } from '../packaging/segment-keys';
import { mediaKeys, UUID_PATTERN, type MediaStore } from '../store';
import type { KeyRateLimit } from './key-limit';
import type { PlaylistStore } from './playlists';
import type { SegmentUrls } from './segment-urls';
import { sendObject } from './send-file';
import { LINK_SECONDS, type PlaybackTokens } from './tokens';
import { sessionSequence } from '../../forensic/code';
import { sessionCodeFor } from '../../forensic/sessions';
import type { VideoStoreCache } from './video-stores';

export interface DeliveryDeps {
  ctx: AppContext;
  auth: Auth;
  videoStores: VideoStoreCache;
  tokens: PlaybackTokens;
  playlists: PlaylistStore;
  segmentUrls: Record<MediaStore['kind'], SegmentUrls>;
  keyLimit: KeyRateLimit;
}

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const PRIVATE_PLAYLIST = 'private, no-cache';
/** Segments are encrypted: useless without the key, so any cache may keep them for good. */
export const SEGMENT_CACHE = 'public, max-age=31536000, immutable';
const RENDITION = /^v\d{2,4}$/;
const PERIOD = /^\d{1,6}$/;
/** A child playlist (its links signed for one session) is reused this long: presigning is not free. */
const CHILD_REUSE_MS = 5 * 60_000;
const MAX_CHILDREN = 20_000;

const sessionHash = (session: string) => createHash('sha256').update(session).digest('base64url');

/** Master playlist, child playlists, segments, keys and poster under /stream/videos/:id. */
export function deliveryRoutes(app: FastifyInstance, deps: DeliveryDeps): void {
  const { ctx, auth, videoStores, tokens, playlists, segmentUrls, keyLimit } = deps;
  const children = new Map<string, { text: string; until: number }>();

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

  /** The full check of every playlist and key request: opening hours for students (503), then access. */
  async function requirePlayback(user: SessionUser, videoId: string): Promise<void> {
    if (user.role === 'student') {
      const state = openingState(ctx.clock.now(), ctx.config.openHours, ctx.config.openTimeZone);
      if (!state.open) {
        throw unavailable(closedMessage(state, ctx.config.productName), {
          opensAt: state.opensAt?.toISOString() ?? null,
        });
      }
    }
    await requireWatch(user, videoId);
  }

  /**
   * The video row behind a master or child playlist, after the full playback check; its store is
   * remembered for the segment fast path.
   */
  async function playlistVideo(user: SessionUser, videoId: string) {
    await requirePlayback(user, videoId);
    const [video] = await ctx.db
      .select({
        status: videos.status,
        renditions: videos.renditions,
        store: videos.store,
        updatedAt: videos.updatedAt,
        forensicSecret: videos.forensicSecret,
      })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!video) throw notFound(mediaMessages.videoNotFound);
    videoStores.remember(videoId, video.store);
    return video;
  }

  registerRoutes(app, auth, {
    // The session comes from the table's `viewer` guard (a full session, 401/403 otherwise).
    'GET /stream/videos/:id/master.m3u8': ({ session, params, request, reply }) =>
      master(session.user, params.id, request, reply),
    'GET /stream/videos/:id/:rendition/:file': ({ params, query, request, reply }) =>
      childOrSegment(params, query.t, request, reply),
    'GET /stream/videos/:id/keys/:period': ({ session, params, request, reply }) =>
      key(session.user, params.id, params.period, request, reply),
    'GET /stream/videos/:id/poster.jpg': async ({ session, params, request, reply }) => {
      await requireWatch(session.user, params.id);
      return sendObject(request, reply, await storeOf(params.id), mediaKeys.poster(params.id), {
        contentType: 'image/jpeg',
        cacheControl: 'private, max-age=3600',
      });
    },
  });

  async function master(user: SessionUser, videoId: string, request: FastifyRequest, reply: FastifyReply) {
    const video = await playlistVideo(user, videoId);
    if (video.status === 'processing') throw conflict(mediaMessages.stillProcessing);
    if (video.status !== 'ready' || !video.renditions.length) throw conflict(mediaMessages.processingFailed);
    const token = tokens.sign(videoId, readToken(request)!, ctx.clock.now().getTime());
    const body = await playlists.master(ctx.media.of(video.store), videoId, video.renditions, token);
    return reply.type(PLAYLIST_TYPE).header('cache-control', PRIVATE_PLAYLIST).send(body);
  }

  /**
   * A child playlist: the session, its link from the master playlist and the full access check,
   * then segment links for that session. A segment that reached Fastify (the fast path declined
   * it): a link check and the file, or the same 403 the fast path would have led to.
   */
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
    const session = readToken(request);
    const nowMs = ctx.clock.now().getTime();
    if (!tokens.verify(id, token, session, nowMs)) throw forbidden(mediaMessages.badToken);
    if (!isPlaylist) {
      return sendObject(request, reply, await storeOf(id), mediaKeys.videoFile(id, rendition, file), {
        contentType: 'video/mp2t',
        cacheControl: SEGMENT_CACHE,
      });
    }
    const { user } = await auth.guard('viewer')!(request);
    const video = await playlistVideo(user, id);
    const store = ctx.media.of(video.store);
    // A marked video: this viewer's playback session picks A or B per segment (docs/FORENSIC.md).
    const secret = video.forensicSecret ? Buffer.from(video.forensicSecret, 'hex') : undefined;
    const code = secret
      ? await sessionCodeFor(ctx.db, {
          userId: user.id,
          videoId: id,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? '',
          now: ctx.clock.now(),
          withinMs: LINK_SECONDS * 1000,
        })
      : '';
    // The row's stamp names the packaged playlist's version (media:rekey and marking replace it).
    const version = `${id}/${rendition}/${video.updatedAt.getTime()}`;
    const cacheKey = `${version}/${store.kind}/${sessionHash(session!)}/${code}`;
    let cached = children.get(cacheKey);
    if (!cached || cached.until <= nowMs) {
      const text = await playlists.child(
        store,
        id,
        rendition,
        version,
        (files) =>
          segmentUrls[store.kind].uris({ store, videoId: id, rendition, files, session: session!, nowMs }),
        secret ? (segments) => sessionSequence(secret, code, segments) : undefined,
      );
      if (text === undefined) throw notFound(mediaMessages.videoNotFound);
      if (children.size >= MAX_CHILDREN) children.clear();
      children.set(cacheKey, (cached = { text, until: nowMs + CHILD_REUSE_MS }));
    }
    return reply.type(PLAYLIST_TYPE).header('cache-control', PRIVATE_PLAYLIST).send(cached.text);
  }

  /**
   * One key: the rate limit first (no database for a downloader), then the full access check on
   * every request (no cache), so a revoke or an expiry refuses the very next key.
   */
  async function key(
    user: SessionUser,
    videoId: string,
    period: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const { keyRefusals } = ctx.metrics;
    if (!UUID_PATTERN.test(videoId) || !PERIOD.test(period)) {
      keyRefusals.inc({ reason: 'not-found' });
      throw notFound(mediaMessages.videoNotFound);
    }
    const now = ctx.clock.now();
    const limited = keyLimit.hit(sessionHash(readToken(request)!), now.getTime());
    if (limited !== 'allowed') {
      keyRefusals.inc({ reason: 'rate-limit' });
      if (limited === 'refused-first') {
        ctx.metrics.suspectedDownloads.inc();
        request.log.warn(
          { videoId, userId: user.id },
          'key requests faster than a player: suspected download',
        );
        await recordAccessEvents(ctx.db, now, [
          {
            action: 'video.suspected-download',
            actorId: user.id,
            studentId: user.id,
            videoId,
            reason: `more than ${keyLimit.perWindow} key requests in a minute`,
          },
        ]);
      }
      throw tooManyRequests(mediaMessages.tooManyKeys, 60);
    }
    await requirePlayback(user, videoId).catch((error: unknown) => {
      // A refusal, not an outage (a database error is not one).
      if (error instanceof HttpError) {
        const status = error.statusCode;
        keyRefusals.inc({ reason: status === 503 ? 'closed' : status === 404 ? 'not-found' : 'no-access' });
      }
      throw error;
    });
    const bytes = await segmentKey(ctx.db, videoId, Number(period));
    if (!bytes) {
      keyRefusals.inc({ reason: 'not-found' });
      throw notFound(mediaMessages.videoNotFound);
    }
    return reply.type('application/octet-stream').header('cache-control', 'private, no-store').send(bytes);
  }
}
