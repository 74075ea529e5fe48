import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { nginxLinkSecret } from '../../src/server/media/delivery/segment-urls';
import { MediaTestServer, type ClipOptions } from './media-kit';
import { startNginx } from './nginx';
import { testStores, type StoreName } from './stores';
import type { TestServerOptions } from './test-server';

export type DeliveryMode = 'node' | 'nginx' | 's3';

/** Each SEGMENT_DELIVERY mode with the store it serves (s3 only where the test S3 server runs). */
export const deliveryModes: [DeliveryMode, StoreName][] = [
  ['node', 'local'],
  ['nginx', 'local'],
  ...(testStores().includes('s3') ? [['s3', 's3'] as [DeliveryMode, StoreName]] : []),
];

/** A GET as the player makes it: with the session cookie when there is one. */
export const get = (url: string | URL, session?: string) =>
  fetch(url, session ? { headers: { cookie: `token=${session}` } } : {});

/** What a playlist lists (its lines that are not tags), as absolute URLs against `base`. */
export const playlistUris = (playlist: string, base: string) =>
  playlist
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => new URL(l, base).toString());

/**
 * Where the player connects in `mode`: nginx (started here, with the site `npm run cli -- nginx:config`
 * prints) in front of the media server in nginx mode, else the server itself. `stop()` ends the nginx.
 */
export async function deliveryOrigin(media: MediaTestServer, mode: DeliveryMode) {
  if (mode !== 'nginx') return { url: media.server.url, stop: async () => {} };
  return startNginx({
    kind: 'delivery',
    videosDir: path.join(media.mediaDir, 'videos'),
    lectern: new URL(media.server.url).host,
    secret: nginxLinkSecret(media.server.ctx.signingKey),
  });
}

/** The first rendition a master playlist (at `origin` + `url`) lists, fetched as a player does. */
export async function firstRendition(origin: string, url: string, session: string) {
  const master = await get(`${origin}${url}`, session);
  expect(master.status).toBe(200);
  const child = playlistUris(await master.text(), `${origin}${url}`)[0]!;
  const res = await get(child, session);
  expect(res.status).toBe(200);
  const playlist = await res.text();
  return { child, playlist, segments: playlistUris(playlist, child) };
}

/**
 * For a describe block: a media server delivering in `mode` on real time (nginx and S3 check link
 * expiry against their own clocks, always open), one video uploaded and ready (then `prepare`d), and
 * the origin the player connects to. `viewer()` signs in a new student given access to the video,
 * every one in the same course.
 */
export function deliverySuite(options: {
  engine: TestServerOptions['engine'];
  store: StoreName;
  mode: DeliveryMode;
  env: Record<string, string>;
  clip: ClipOptions;
  fileName: string;
  prepare?(media: MediaTestServer, videoId: string): Promise<void>;
  timeoutMs?: number;
}) {
  let media: MediaTestServer | undefined;
  let delivery: Awaited<ReturnType<typeof deliveryOrigin>> | undefined;
  let video: { videoId: string; url: string } | undefined;
  let courseId: string | undefined;
  const made = <T>(value: T | undefined) => {
    if (value === undefined) throw new Error('The delivery suite is made in beforeAll; use it inside a test');
    return value;
  };
  beforeAll(async () => {
    media = await MediaTestServer.start({
      engine: options.engine,
      store: options.store,
      now: new Date().toISOString(),
      env: { SEGMENT_DELIVERY: options.mode, OPEN_HOURS: 'always', ...options.env },
    });
    const admin = (await media.server.adminClient()).client;
    const uploaded = await media.uploadReady(admin, options.clip, options.fileName);
    await options.prepare?.(media, uploaded.videoId);
    video = { videoId: uploaded.videoId, url: uploaded.body.url };
    delivery = await deliveryOrigin(media, options.mode);
  }, options.timeoutMs);
  afterAll(async () => {
    await delivery?.stop();
    await media?.close();
  });
  return {
    get media() {
      return made(media);
    },
    /** Where the player connects: nginx in front of Lectern in nginx mode, else Lectern. */
    get origin() {
      return made(delivery).url;
    },
    get video() {
      return made(video);
    },
    /** The course the viewers are enrolled in. */
    get courseId() {
      return made(courseId);
    },
    async viewer() {
      const { client, student } = await made(media).server.studentClient();
      courseId = await made(media).giveAccess(student.id, made(video).videoId, courseId ? { courseId } : {});
      return { client, student, session: client.token! };
    },
  };
}
