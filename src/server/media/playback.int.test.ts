import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, videoKeys } from '../db/schema';
import { openSegmentKey, wrapSegmentKey } from '../videos/video-secrets';
import { decryptSegment } from './packaging/segment-keys';
import { mediaMessages } from '../../contract/media';
import { testEngines } from '../../../test/support/databases';
import { mediaMatrix } from '../../../test/support/stores';
import type { TestClient } from '../../../test/support/http-client';
import { OPEN_TIME, type TestStudent } from '../../../test/support/test-server';
import { decodeHls, makeClip, MediaTestServer, uploadVideo } from '../../../test/support/media-kit';

/** A request with session `session`'s cookie (or none). */
const get = (url: string | URL, session?: string) =>
  fetch(url, session ? { headers: { cookie: `token=${session}` } } : {});

/** A request's status, its body read to the end (an unread body would keep the connection busy). */
async function statusOf(url: string | URL, session?: string): Promise<number> {
  const res = await get(url, session);
  await res.arrayBuffer();
  return res.status;
}

/** The key URIs of a child playlist, resolved against the server. */
const keyUrisOf = (playlist: string, base: string) =>
  [...playlist.matchAll(/URI="([^"]+)"/g)].map((m) => new URL(m[1]!, base).toString());

/** An MPEG-TS file has a 0x47 sync byte every 188 bytes; ciphertext does not. */
const looksLikePlainTs = (bytes: Buffer) => [0, 188, 376, 564].every((i) => bytes[i] === 0x47);

/** The URIs of a playlist, resolved against its own URL. */
function urisOf(playlist: string, base: string): string[] {
  return playlist
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => new URL(l, base).toString());
}

describe.each(mediaMatrix(testEngines()))('protected HLS playback (%s, %s store)', (engine, store) => {
  let media: MediaTestServer;
  let admin: TestClient;
  let lecture: { videoId: string; url: string };
  let other: { videoId: string; url: string };
  let courseId: string;
  let viewer: { client: TestClient; student: TestStudent };

  /** A signed-in student enrolled in the course (as told) and granted the lecture (unless told not). */
  async function student(options: { expiresInDays?: number; revoked?: boolean; grantVideo?: boolean } = {}) {
    const s = await media.server.studentClient();
    await media.giveAccess(s.student.id, lecture.videoId, { courseId, ...options });
    return s;
  }

  async function childAndSegment(client: TestClient, url: string) {
    const master = await client.get(url);
    expect(master.status).toBe(200);
    const child = urisOf(master.body, new URL(url, media.server.url).toString())[0]!;
    const playlist = await client.get(child);
    const segment = urisOf(playlist.body, child)[0]!;
    const token = new URL(child).searchParams.get('t')!;
    return { master, child, playlist, segment, token };
  }

  beforeAll(async () => {
    media = await MediaTestServer.start({ engine, store });
    admin = (await media.server.adminClient()).client;
    const a = await uploadVideo(admin, await makeClip({ seconds: 3 }), 'lecture.mp4');
    const b = await uploadVideo(admin, await makeClip({ seconds: 2, width: 640, height: 400 }), 'other.mp4');
    lecture = { videoId: a.videoId, url: a.body.url };
    other = { videoId: b.videoId, url: b.body.url };
    expect((await media.settled(a.videoId)).status).toBe('ready');
    expect((await media.settled(b.videoId)).status).toBe('ready');
    viewer = await media.server.studentClient();
    courseId = await media.giveAccess(viewer.student.id, lecture.videoId);
    await media.giveAccess(viewer.student.id, other.videoId, { courseId });
  });
  afterAll(() => media?.close());

  it('plays for a student with access: ffmpeg decrypts and decodes every frame of the 3 s lecture', async () => {
    const decoded = await decodeHls(`${media.server.url}${lecture.url}`, viewer.client.token);
    expect(decoded.frames).toBeGreaterThanOrEqual(74);
    expect(decoded.frames).toBeLessThanOrEqual(76);
    expect(decoded.seconds).toBeCloseTo(3, 0);
  });

  it('writes a link on every child playlist and segment URI, key URIs on the key route, and encrypts the segments', async () => {
    const { master, playlist, segment } = await childAndSegment(viewer.client, lecture.url);
    expect(master.headers.get('content-type')).toContain('application/vnd.apple.mpegurl');
    expect(master.body).toMatch(/^#EXTM3U/);
    for (const uri of urisOf(master.body, media.server.url))
      expect(new URL(uri).searchParams.get('t')).toBeTruthy();
    expect(playlist.body).toMatch(/#EXT-X-KEY:METHOD=AES-128,URI="\/stream\/videos\/[0-9a-f-]{36}\/keys\/0"/);
    for (const uri of urisOf(playlist.body, media.server.url))
      expect(new URL(uri).searchParams.get('t')).toBeTruthy();
    // Without the key the bytes are noise.
    const bytes = Buffer.from(await (await get(segment, viewer.client.token)).arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    expect(looksLikePlainTs(bytes)).toBe(false);
    // And the key never sits in the served folder.
    const served = await media.objects('videos/');
    expect(served.length).toBeGreaterThan(3);
    expect(served.some((f) => f.endsWith('.key') || f.includes('keyinfo'))).toBe(false);
  });

  it('needs a session for the master playlist (401) and refuses a reset-only one', async () => {
    expect((await media.server.client().get(lecture.url)).status).toBe(401);
    const fresh = await media.server.createStudent();
    const client = media.server.client();
    await client.post('/api/signin', { username: fresh.username, password: fresh.password });
    expect((await client.get(lecture.url)).status).toBe(403);
  });

  it('refuses students without video access, with revoked or with expired course access (403)', async () => {
    const cases = {
      'no video grant': await student({ grantVideo: false }),
      'revoked course access': await student({ revoked: true }),
      'expired course access': await student({ expiresInDays: -1 }),
      'not enrolled': await media.server.studentClient(),
    };
    for (const [name, { client }] of Object.entries(cases)) {
      const res = await client.get(lecture.url);
      expect(res.status, name).toBe(403);
      await expect(decodeHls(`${media.server.url}${lecture.url}`, client.token)).rejects.toThrow();
    }
    expect((await cases['no video grant'].client.get(lecture.url)).body.message).toBe(
      mediaMessages.noVideoAccess,
    );
    expect((await cases['expired course access'].client.get(lecture.url)).body.message).toBe(
      mediaMessages.noCourseAccess,
    );
  });

  it("refuses another video's link, a tampered link and an expired one (403)", async () => {
    const session = viewer.client.token;
    const { child, segment, token } = await childAndSegment(viewer.client, lecture.url);
    const otherChild = (await childAndSegment(viewer.client, other.url)).child;
    const swapped = new URL(otherChild);
    swapped.searchParams.set('t', token);
    expect(await statusOf(swapped, session)).toBe(403);
    const swappedSegment = new URL(segment.replace(lecture.videoId, other.videoId));
    expect(await statusOf(swappedSegment, session)).toBe(403);

    for (const bad of [token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA'), '', 'x.y', 'x.y.z']) {
      const url = new URL(segment);
      url.searchParams.set('t', bad);
      expect(await statusOf(url, session), bad).toBe(403);
    }
    expect(await statusOf(child, session)).toBe(200);
    expect(await statusOf(segment, session)).toBe(200);
    media.server.clock.advance(6 * 3600_000 + 1000);
    try {
      expect(await statusOf(segment, session)).toBe(403);
    } finally {
      media.server.clock.set(OPEN_TIME);
    }
  });

  it('binds links to the session: a copied playlist or segment link is refused elsewhere', async () => {
    const { child, segment } = await childAndSegment(viewer.client, lecture.url);
    // Another student who may watch the same lecture, in another browser.
    const other = await student();
    expect(await statusOf(child, other.client.token)).toBe(403);
    expect(await statusOf(segment, other.client.token)).toBe(403);
    expect(await statusOf(segment)).toBe(403);
    expect(await statusOf(child)).toBe(403);
  });

  it('serves keys only to a session that may watch, checking access on every request', async () => {
    const { playlist } = await childAndSegment(viewer.client, lecture.url);
    const keyUrl = keyUrisOf(playlist.body, media.server.url)[0]!;
    expect(await statusOf(keyUrl)).toBe(401);
    const outsider = await media.server.studentClient();
    expect((await outsider.client.get(keyUrl)).status).toBe(403);
    const res = await get(keyUrl, viewer.client.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect((await res.arrayBuffer()).byteLength).toBe(16);
    expect(await statusOf(keyUrl.replace(/keys\/0$/, 'keys/99'), viewer.client.token)).toBe(404);
  });

  it('keeps the key wrapped in the database and serves its 16 bytes; a key that does not open answers 503', async () => {
    const s = await student();
    const { playlist, segment } = await childAndSegment(s.client, lecture.url);
    const keyUrl = keyUrisOf(playlist.body, media.server.url)[0]!;
    const served = Buffer.from(await (await get(keyUrl, s.client.token)).arrayBuffer());
    expect(served).toHaveLength(16);
    // The row, read directly: not the key, in hex or any other spelling.
    const { db, signingKey } = media.server.ctx;
    const rows = await db.select().from(videoKeys).where(eq(videoKeys.videoId, lecture.videoId));
    const row = rows.find((r) => r.period === 0)!;
    expect(row.key).toMatch(/^w1\./);
    for (const spelling of ['hex', 'base64', 'base64url'] as const)
      expect(row.key).not.toContain(served.toString(spelling));
    expect(openSegmentKey(signingKey, lecture.videoId, row.key).equals(served)).toBe(true);
    // The served key is the one the segments were encrypted with.
    const encrypted = Buffer.from(await (await get(segment, s.client.token)).arrayBuffer());
    const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist.body)?.[1] ?? 0);
    expect(looksLikePlainTs(decryptSegment(encrypted, served, sequence))).toBe(true);

    // Another video's wrapped key moved onto this row, then one wrapped under another signing key.
    const [moved] = await db.select().from(videoKeys).where(eq(videoKeys.videoId, other.videoId)).limit(1);
    const foreign = wrapSegmentKey(
      Buffer.from('the signing key of another install, 32+ bytes'),
      lecture.videoId,
      served,
    );
    const at = and(eq(videoKeys.videoId, lecture.videoId), eq(videoKeys.period, 0));
    try {
      for (const stored of [moved!.key, foreign]) {
        await db.update(videoKeys).set({ key: stored }).where(at);
        const refused = await get(keyUrl, s.client.token);
        expect(refused.status).toBe(503);
        expect((await refused.json()).message).toBe(mediaMessages.keyUnreadable);
      }
    } finally {
      await db.update(videoKeys).set({ key: row.key }).where(at);
    }
    expect(await statusOf(keyUrl, s.client.token)).toBe(200);
  });

  it('refuses the very next key after a revoke; the segments it already has stay ciphertext', async () => {
    const s = await student();
    const { playlist, segment } = await childAndSegment(s.client, lecture.url);
    const keyUrl = keyUrisOf(playlist.body, media.server.url)[0]!;
    expect(await statusOf(keyUrl, s.client.token)).toBe(200);
    await media.revokeCourse(s.student.id, courseId);
    expect(await statusOf(keyUrl, s.client.token)).toBe(403);
    expect((await s.client.get(lecture.url)).status).toBe(403);
    const bytes = Buffer.from(await (await get(segment, s.client.token)).arrayBuffer());
    expect(looksLikePlainTs(bytes)).toBe(false);
  });

  it('refuses keys to a session asking faster than any player and writes a suspected download to the audit log', async () => {
    const s = await student();
    const { playlist } = await childAndSegment(s.client, lecture.url);
    const keyUrl = keyUrisOf(playlist.body, media.server.url)[0]!;
    const statuses: number[] = [];
    for (let i = 0; i < 40 && !statuses.includes(429); i++)
      statuses.push(await statusOf(keyUrl, s.client.token));
    // KEY_ROTATION_SECONDS=60: a 2x player needs 2 keys a minute; seeks add a few.
    expect(statuses.indexOf(429)).toBeGreaterThanOrEqual(8);
    expect(statuses.indexOf(429)).toBeLessThanOrEqual(12);
    const refused = await get(keyUrl, s.client.token);
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe(mediaMessages.tooManyKeys);
    const rows = await media.server.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.studentId, s.student.id), eq(auditEvents.action, 'video.suspected-download')),
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.videoId).toBe(lecture.videoId);
    // Other sessions are not affected.
    expect(await statusOf(keyUrl, viewer.client.token)).toBe(200);
  });

  it('closes for students outside opening hours (503, keys too) but not for admins', async () => {
    const { playlist } = await childAndSegment(viewer.client, lecture.url);
    const keyUrl = keyUrisOf(playlist.body, media.server.url)[0]!;
    media.server.clock.set('2026-03-02T17:00:00.000Z'); // 22:30 in Asia/Kolkata
    try {
      const res = await viewer.client.get(lecture.url);
      expect(res.status).toBe(503);
      expect(res.body.opensAt).toBeTruthy();
      expect(await statusOf(keyUrl, viewer.client.token)).toBe(503);
      expect((await admin.get(lecture.url)).status).toBe(200);
    } finally {
      media.server.clock.set(OPEN_TIME);
    }
  });

  it('sets Cache-Control per kind and answers range requests', async () => {
    const { master, playlist, segment } = await childAndSegment(viewer.client, lecture.url);
    expect(master.headers.get('cache-control')).toBe('private, no-cache');
    expect(playlist.headers.get('cache-control')).toBe('private, no-cache');
    const session = viewer.client.token;
    const full = await get(segment, session);
    expect(full.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    const whole = Buffer.from(await full.arrayBuffer());
    const withRange = (range: string) => fetch(segment, { headers: { range, cookie: `token=${session}` } });
    const part = await withRange('bytes=100-299');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-299/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(100, 300))).toBe(true);
    const tail = await withRange('bytes=-10');
    expect(Buffer.from(await tail.arrayBuffer()).equals(whole.subarray(-10))).toBe(true);
    const beyond = await withRange(`bytes=${whole.length}-`);
    await beyond.arrayBuffer();
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
  });

  it('adds the ladder below the source to the master playlist once each rung is complete', async () => {
    const deadline = Date.now() + 20_000;
    let body = '';
    while (Date.now() < deadline) {
      body = (await viewer.client.get(other.url)).body;
      if (body.includes('RESOLUTION=576x360')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(body).toContain('RESOLUTION=640x400');
    expect(body).toContain('RESOLUTION=576x360');
    const rung = urisOf(body, `${media.server.url}${other.url}`).find((u) => u.includes('/v360/'))!;
    const decoded = await decodeHls(rung, viewer.client.token);
    expect(decoded.frames).toBeGreaterThanOrEqual(49);
    expect(decoded.seconds).toBeCloseTo(2, 0);
    // The source is not needed once the ladder is done.
    expect(await media.objects('sources/')).not.toContain(`sources/${other.videoId}`);
  });

  it('transcodes a source that is not H.264 (MPEG-4 Part 2 in MKV) and plays it', async () => {
    const { videoId, body } = await uploadVideo(
      admin,
      await makeClip({ seconds: 2, codec: 'mpeg4', format: 'matroska' }),
      'old.mkv',
    );
    expect((await media.settled(videoId)).status).toBe('ready');
    const decoded = await decodeHls(`${media.server.url}${body.url}`, admin.token);
    expect(decoded.frames).toBeGreaterThanOrEqual(49);
  });

  it('serves the poster frame to those who may watch', async () => {
    const poster = `/stream/videos/${lecture.videoId}/poster.jpg`;
    const res = await fetch(new URL(poster, media.server.url), {
      headers: { cookie: `token=${viewer.client.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    const outsider = await media.server.studentClient();
    expect((await outsider.client.get(poster)).status).toBe(403);
    expect(await media.objectBytes(`videos/${lecture.videoId}/poster.jpg`)).toEqual(bytes);
  });
});
