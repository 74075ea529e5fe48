import { describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases';
import { deliveryModes, deliverySuite, firstRendition, get } from '../../../test/support/delivery';
import { decodeHls } from '../../../test/support/media-kit';
import { LINK_SECONDS } from './delivery/tokens';

const ROTATION = 6;

const keyUris = (playlist: string, base: string) =>
  [...playlist.matchAll(/URI="([^"]+)"/g)].map((m) => new URL(m[1]!, base).toString());
/** An MPEG-TS file has a 0x47 sync byte every 188 bytes; ciphertext does not. */
const looksLikePlainTs = (bytes: Buffer) =>
  bytes.length >= 188 * 8 && [0, 1, 2, 3, 4, 5, 6, 7].every((i) => bytes[i * 188] === 0x47);

describe.each(testEngines())('SEGMENT_DELIVERY modes with rotating keys (%s)', (engine) => {
  describe.each(deliveryModes)('SEGMENT_DELIVERY=%s (%s store)', (mode, store) => {
    const suite = deliverySuite({
      engine,
      store,
      mode,
      env: { KEY_ROTATION_SECONDS: String(ROTATION) },
      clip: { seconds: 14 },
      fileName: 'rotating.mp4',
    });

    async function viewer() {
      const { student, session } = await suite.viewer();
      const { child, playlist, segments } = await firstRendition(suite.origin, suite.video.url, session);
      return { student, session, child, playlist, segments, keys: keyUris(playlist, suite.origin) };
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
      const decoded = await decodeHls(`${suite.origin}${suite.video.url}`, session);
      expect(decoded.frames).toBeGreaterThanOrEqual(345);
      expect(decoded.seconds).toBeCloseTo(14, 0);
    });

    it('serves segments without Lectern in nginx and s3 modes, as ciphertext', async () => {
      const { session, segments } = await viewer();
      const res = await get(segments[0]!, session);
      expect(res.status).toBe(200);
      if (mode === 'nginx') expect(res.headers.get('server')).toMatch(/nginx/);
      if (mode === 's3') expect(new URL(segments[0]!).host).not.toBe(new URL(suite.media.server.url).host);
      expect(looksLikePlainTs(Buffer.from(await res.arrayBuffer()))).toBe(false);
    });

    it('refuses the next key at once after a revoke', async () => {
      const { student, session, keys, segments } = await viewer();
      expect((await get(keys[0]!, session)).status).toBe(200);
      await suite.media.revokeCourse(student.id, suite.courseId);
      expect((await get(keys[1]!, session)).status).toBe(403);
      expect((await get(keys[0]!, session)).status).toBe(403);
      // Segments it may still fetch are useless without keys.
      const bytes = Buffer.from(await (await get(segments[1]!, session)).arrayBuffer());
      expect(looksLikePlainTs(bytes)).toBe(false);
    });

    it('yields only ciphertext or a refusal for a segment link used from another session', async () => {
      const { segments } = await viewer();
      const thief = (await suite.media.server.studentClient()).client.token!;
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
      const realNow = suite.media.server.clock.now().getTime();
      // Links made as if a playlist lifetime and a minute ago: expired a minute ago by real time.
      suite.media.server.clock.set(new Date(realNow - (LINK_SECONDS + 60) * 1000));
      let old: Awaited<ReturnType<typeof viewer>>;
      try {
        old = await viewer();
      } finally {
        suite.media.server.clock.set(new Date(realNow));
      }
      const res = await get(old.segments[0]!, old.session);
      await res.arrayBuffer();
      expect([403, 410]).toContain(res.status);
    });
  });
});
