import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases';
import { decodeHls, makeClip, MediaTestServer, uploadVideo } from '../../../test/support/media-kit';
import { startNginx } from '../../../test/support/nginx';
import type { StoreName } from '../../../test/support/stores';
import { testStores } from '../../../test/support/stores';
import { nginxLinkSecret } from './delivery/segment-urls';
import { LINK_SECONDS } from './delivery/tokens';

type Mode = 'node' | 'nginx' | 's3';
const ROTATION = 6;

/** Each SEGMENT_DELIVERY mode with the store it serves (s3 only where the test S3 server runs). */
const modes: [Mode, StoreName][] = [
  ['node', 'local'],
  ['nginx', 'local'],
  ...(testStores().includes('s3') ? [['s3', 's3'] as [Mode, StoreName]] : []),
];

const get = (url: string | URL, session?: string) =>
  fetch(url, session ? { headers: { cookie: `token=${session}` } } : {});
const uris = (playlist: string, base: string) =>
  playlist
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => new URL(l, base).toString());
const keyUris = (playlist: string, base: string) =>
  [...playlist.matchAll(/URI="([^"]+)"/g)].map((m) => new URL(m[1]!, base).toString());
/** An MPEG-TS file has a 0x47 sync byte every 188 bytes; ciphertext does not. */
const looksLikePlainTs = (bytes: Buffer) =>
  bytes.length >= 188 * 8 && [0, 1, 2, 3, 4, 5, 6, 7].every((i) => bytes[i * 188] === 0x47);

describe.each(testEngines())('SEGMENT_DELIVERY modes with rotating keys (%s)', (engine) => {
  describe.each(modes)('SEGMENT_DELIVERY=%s (%s store)', (mode, store) => {
    let media: MediaTestServer;
    let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
    /** Where the player connects: nginx in front of Lectern in nginx mode, else Lectern. */
    let origin: string;
    let video: { videoId: string; url: string };
    let courseId: string;

    beforeAll(async () => {
      // Real time: nginx and S3 check link expiry against their own clocks.
      media = await MediaTestServer.start({
        engine,
        store,
        now: new Date().toISOString(),
        env: { SEGMENT_DELIVERY: mode, KEY_ROTATION_SECONDS: String(ROTATION), OPEN_HOURS: 'always' },
      });
      const admin = (await media.server.adminClient()).client;
      const uploaded = await uploadVideo(admin, await makeClip({ seconds: 14 }), 'rotating.mp4');
      video = { videoId: uploaded.videoId, url: uploaded.body.url };
      expect((await media.settled(video.videoId)).status).toBe('ready');
      origin = media.server.url;
      if (mode === 'nginx') {
        nginx = await startNginx({
          kind: 'delivery',
          videosDir: path.join(media.mediaDir, 'videos'),
          lectern: new URL(media.server.url).host,
          secret: nginxLinkSecret(media.server.ctx.signingKey),
        });
        origin = nginx.url;
      }
    });
    afterAll(async () => {
      await nginx?.stop();
      await media?.close();
    });

    async function viewer() {
      const { client, student } = await media.server.studentClient();
      courseId = await media.giveAccess(student.id, video.videoId, courseId ? { courseId } : {});
      const session = client.token!;
      const master = await get(`${origin}${video.url}`, session);
      expect(master.status).toBe(200);
      const child = uris(await master.text(), `${origin}${video.url}`)[0]!;
      const res = await get(child, session);
      expect(res.status).toBe(200);
      const playlist = await res.text();
      return {
        student,
        session,
        child,
        playlist,
        segments: uris(playlist, child),
        keys: keyUris(playlist, origin),
      };
    }

    it('plays: ffmpeg fetches every key and segment and decodes the whole video', async () => {
      const { session, playlist, segments, keys } = await viewer();
      // One key per 6 s of media, each from Lectern's key route; segments from the mode's server.
      expect(new Set(keys).size).toBeGreaterThanOrEqual(3);
      for (const key of keys)
        expect(new URL(key).pathname).toMatch(/^\/stream\/videos\/[0-9a-f-]{36}\/keys\/\d+$/);
      if (mode === 's3')
        expect(segments.every((s) => new URL(s).searchParams.has('X-Amz-Signature'))).toBe(true);
      if (mode === 'nginx') expect(segments.every((s) => /\?e=\d+&s=[\w-]+$/.test(s))).toBe(true);
      expect(playlist).not.toContain('key:');
      const decoded = await decodeHls(`${origin}${video.url}`, session);
      expect(decoded.frames).toBeGreaterThanOrEqual(345);
      expect(decoded.seconds).toBeCloseTo(14, 0);
    });

    it('serves segments without Lectern in nginx and s3 modes, as ciphertext', async () => {
      const { session, segments } = await viewer();
      const res = await get(segments[0]!, session);
      expect(res.status).toBe(200);
      if (mode === 'nginx') expect(res.headers.get('server')).toMatch(/nginx/);
      if (mode === 's3') expect(new URL(segments[0]!).host).not.toBe(new URL(media.server.url).host);
      expect(looksLikePlainTs(Buffer.from(await res.arrayBuffer()))).toBe(false);
    });

    it('refuses the next key at once after a revoke', async () => {
      const { student, session, keys, segments } = await viewer();
      expect((await get(keys[0]!, session)).status).toBe(200);
      await media.revokeCourse(student.id, courseId);
      expect((await get(keys[1]!, session)).status).toBe(403);
      expect((await get(keys[0]!, session)).status).toBe(403);
      // Segments it may still fetch are useless without keys.
      const bytes = Buffer.from(await (await get(segments[1]!, session)).arrayBuffer());
      expect(looksLikePlainTs(bytes)).toBe(false);
    });

    it('yields only ciphertext or a refusal for a segment link used from another session', async () => {
      const { segments } = await viewer();
      const thief = (await media.server.studentClient()).client.token!;
      for (const session of [thief, undefined]) {
        const res = await get(segments[0]!, session);
        const bytes = Buffer.from(await res.arrayBuffer());
        if (mode === 's3')
          expect(looksLikePlainTs(bytes)).toBe(false); // a presigned URL is a bearer link
        else expect(res.status).toBe(403);
      }
    });

    it('refuses a child playlist copied to another account or browser', async () => {
      const { child } = await viewer();
      const other = await viewer();
      const copied = await get(child, other.session);
      await copied.arrayBuffer();
      expect(copied.status).toBe(403);
      const anonymous = await get(child);
      await anonymous.arrayBuffer();
      expect([401, 403]).toContain(anonymous.status);
    });

    it('refuses an expired segment link (nginx and S3 check it by themselves)', async () => {
      const realNow = media.server.clock.now().getTime();
      // Links made as if a playlist lifetime and a minute ago: expired a minute ago by real time.
      media.server.clock.set(new Date(realNow - (LINK_SECONDS + 60) * 1000));
      let old: Awaited<ReturnType<typeof viewer>>;
      try {
        old = await viewer();
      } finally {
        media.server.clock.set(new Date(realNow));
      }
      const res = await get(old.segments[0]!, old.session);
      await res.arrayBuffer();
      expect([403, 410]).toContain(res.status);
    });
  });
});
