import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mediaMessages } from '../../../contract/media';
import type { SessionUser } from '../../accounts/sessions';
import { recordAccessEvents } from '../../audit/events';
import type { AppContext } from '../../context';
import { conflict, forbidden, HttpError, notFound, tooManyRequests, unavailable } from '../../errors';
import { registerRoutes } from '../../http/route-table';
import { readToken, type Auth } from '../../http/auth';
import { requireOpenOrRunningClass } from '../../http/opening-gate';
import { requireWatch, type PlaybackVideo } from '../../videos/access';
import { PLAYLIST, SEGMENT_PATTERN } from '../packaging/hls';
import { segmentKey } from '../packaging/segment-keys';
import { mediaKeys, UUID_PATTERN, type MediaStore } from '../../storage';
import { ChildPlaylistCache } from './child-playlists';
import { LinkReuse } from './link-reuse';
import type { KeyRateLimit } from './key-limit';
import type { PlaylistStore } from './playlists';
import type { SegmentUrls } from './segment-urls';
import { sendObject } from './send-file';
import { LINK_SECONDS, type PlaybackTokens } from './tokens';
import { sessionSequence } from '../../marks/code';
import { sessionCodeFor } from '../../marks/sessions';
import type { VideoStoreCache } from './video-stores';
import { RENDITION_SOURCE } from '../../videos/stream-urls';
import { openForensicSecret, VideoSecretError } from '../../videos/video-secrets';

/**
 * What else may hold a key back (checkpoints/hold.ts, attached by the wiring): throws an HttpError
 * (403) to refuse the key of a period starting at `periodStartSeconds` of the video.
 */
export type KeyHold = (user: SessionUser, videoId: string, periodStartSeconds: number) => Promise<void>;

export interface DeliveryDeps {
  ctx: AppContext;
  auth: Auth;
  videoStores: VideoStoreCache;
  tokens: PlaybackTokens;
  playlists: PlaylistStore;
  segmentUrls: Record<MediaStore['kind'], SegmentUrls>;
  keyLimit: KeyRateLimit;
  keyHold?: KeyHold;
}

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const PRIVATE_PLAYLIST = 'private, no-cache';
/** Segments are encrypted: useless without the key, so any cache may keep them for good. */
export const SEGMENT_CACHE = 'public, max-age=31536000, immutable';
const RENDITION = new RegExp(`^${RENDITION_SOURCE}$`);
const PERIOD = /^\d{1,6}$/;
/** A child playlist (its links signed for one session) is reused this long: presigning is not free. */
const CHILD_REUSE_MS = 5 * 60_000;
/** What those kept playlists may take: ~60 sessions of a long S3 playlist, ~1,000 of node links. */
const CHILD_CACHE_BYTES = 64 * 1024 * 1024;
/** The links kept for the next version of a growing (live) playlist: ~300 viewers of a 90-minute class. */
const LINK_REUSE = { maxChars: 64 * 1024 * 1024, maxEntries: 20_000 };

const sessionHash = (session: string) => createHash('sha256').update(session).digest('base64url');
/** An unreadable key is logged at most this often per process: every viewer of every video hits it. */
const UNREADABLE_LOG_MS = 60_000;

/** Master playlist, child playlists, segments, keys and poster under /stream/videos/:id. */
export function deliveryRoutes(app: FastifyInstance, deps: DeliveryDeps): void {
  const { ctx, auth, videoStores, tokens, playlists, segmentUrls, keyLimit, keyHold } = deps;
  const children = new ChildPlaylistCache({ maxBytes: CHILD_CACHE_BYTES, ttlMs: CHILD_REUSE_MS });
  const reusable = new LinkReuse({ ...LINK_REUSE, reuseMs: CHILD_REUSE_MS });
  let unreadableLoggedAt = -Infinity;

  /**
   * A stored key or forensic secret that does not open with this node's signing key (a database
   * restored or copied under another SIGNING_KEY, or a node configured with the wrong one): a 503
   * saying so, not a 500, and an error line for the operator. A proxy retries another node.
   */
  function unreadable(error: unknown): never {
    if (!(error instanceof VideoSecretError)) throw error;
    const nowMs = ctx.clock.now().getTime();
    if (nowMs - unreadableLoggedAt >= UNREADABLE_LOG_MS) {
      unreadableLoggedAt = nowMs;
      ctx.logger.error(
        { videoId: error.videoId, secret: error.kind },
        'a video key does not open with this signing key: set the SIGNING_KEY the database was written with (npm run cli -- doctor)',
      );
    }
    throw unavailable(mediaMessages.keyUnreadable);
  }

  /** The store of a video as its row says now (the fast path's cached answer may be older). */
  async function storeOf(videoId: string): Promise<MediaStore> {
    const kind = await videoStores.load(videoId);
    if (!kind) throw notFound(mediaMessages.videoNotFound);
    return ctx.media.of(kind);
  }

  /**
   * The full check of every playlist, key and poster request: opening hours for students (503; a
   * live class under way stays open to its end), the id (404), then access (videos/access.ts); the
   * video's row comes back from that one read.
   */
  async function requirePlayback(user: SessionUser, videoId: string): Promise<PlaybackVideo> {
    await requireOpenOrRunningClass(ctx, user, videoId);
    if (!UUID_PATTERN.test(videoId)) throw notFound(mediaMessages.videoNotFound);
    return requireWatch(ctx, user, videoId);
  }

  /**
   * The video row behind a master or child playlist or a poster, after the full playback check; its
   * store is remembered for the segment fast path.
   */
  async function playlistVideo(user: SessionUser, videoId: string): Promise<PlaybackVideo> {
    const video = await requirePlayback(user, videoId);
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
      const video = await playlistVideo(session.user, params.id);
      return sendObject(request, reply, ctx.media.of(video.store), mediaKeys.poster(params.id), {
        contentType: 'image/jpeg',
        cacheControl: 'private, max-age=3600',
      });
    },
  });

  async function master(user: SessionUser, videoId: string, request: FastifyRequest, reply: FastifyReply) {
    const video = await playlistVideo(user, videoId);
    if (video.status === 'processing') throw conflict(mediaMessages.stillProcessing);
    if (video.status !== 'ready' || !video.renditions.length) throw conflict(mediaMessages.processingFailed);
    const session = readToken(request)!;
    const nowMs = ctx.clock.now().getTime();
    const body = await playlists.master(ctx.media.of(video.store), videoId, video.renditions, (path) =>
      tokens.sign(videoId, path, session, nowMs),
    );
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
    if (!tokens.verify(id, `${rendition}/${file}`, token, session, nowMs))
      throw forbidden(mediaMessages.badToken);
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
    let secret: Buffer | undefined;
    try {
      secret = openForensicSecret(ctx.signingKey, id, video.forensicSecret);
    } catch (error) {
      unreadable(error);
    }
    const code = secret
      ? await sessionCodeFor(ctx.db, {
          userId: user.id,
          videoId: id,
          courseId: video.courseId,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? '',
          now: ctx.clock.now(),
          withinMs: LINK_SECONDS * 1000,
        })
      : '';
    // The row's stamp names the packaged playlist's version (media:rekey and marking replace it).
    const version = `${id}/${rendition}/${video.updatedAt.getTime()}`;
    const viewer = `${store.kind}/${sessionHash(session!)}/${code}`;
    const cacheKey = `${version}/${viewer}`;
    let text = children.get(cacheKey, nowMs);
    if (text === undefined) {
      text = await playlists.child(
        store,
        id,
        rendition,
        version,
        (files) =>
          reusable.links(`${id}/${rendition}/${viewer}`, files, nowMs, (more) =>
            segmentUrls[store.kind].uris({ store, videoId: id, rendition, files: more, session: session!, nowMs }),
          ),
        secret ? (segments) => sessionSequence(secret, code, segments) : undefined,
      );
      if (text === undefined) throw notFound(mediaMessages.videoNotFound);
      children.set(cacheKey, text, nowMs);
    }
    return reply.type(PLAYLIST_TYPE).header('cache-control', PRIVATE_PLAYLIST).send(text);
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
    if (keyHold) {
      await keyHold(user, videoId, Number(period) * ctx.config.keyRotationSeconds).catch((error: unknown) => {
        if (error instanceof HttpError) keyRefusals.inc({ reason: 'checkpoint' });
        throw error;
      });
    }
    const bytes = await segmentKey(ctx, videoId, Number(period)).catch((error: unknown) => {
      if (error instanceof VideoSecretError) keyRefusals.inc({ reason: 'unreadable' });
      return unreadable(error);
    });
    if (!bytes) {
      keyRefusals.inc({ reason: 'not-found' });
      throw notFound(mediaMessages.videoNotFound);
    }
    return reply.type('application/octet-stream').header('cache-control', 'private, no-store').send(bytes);
  }
}
