import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveryModes, deliverySuite, firstRendition, get } from '../../../test/support/delivery';
import { waitUntilMarked } from '../../../test/support/forensic-fixtures';
import { decodeHls } from '../../../test/support/media-kit';
import { playbackSessions, videos } from '../db/schema';
import { sessionSequence } from '../marks/code';
import { MARK_SEGMENT_SECONDS, VARIANT_B_TAG, VARIANT_FILE_PATTERN } from '../marks/mark';
import { openForensicSecret } from '../videos/video-secrets';

const SECONDS = 30; // 10 marked segments: two sessions pick the same variants with probability 1/1024
const SEGMENTS = SECONDS / MARK_SEGMENT_SECONDS;

const fileOf = (uri: string) => path.posix.basename(new URL(uri).pathname);

describe.each(deliveryModes)('forensic A/B marks, SEGMENT_DELIVERY=%s (%s store)', (mode, store) => {
  const suite = deliverySuite({
    engine: 'pglite',
    store,
    mode,
    env: { FORENSIC_MARKS: 'on' },
    clip: { seconds: SECONDS },
    fileName: 'marked.mp4',
    // The ladder job replaces the remuxed rendition with the marked one.
    prepare: (media, videoId) => waitUntilMarked(() => media.objectText(`videos/${videoId}/v180/index.m3u8`)),
    timeoutMs: 300_000,
  });

  async function viewer() {
    const { client, student, session } = await suite.viewer();
    // The player opens a playback session first; its code picks the variants.
    const opened = await client.post('/api/playback', { videoId: suite.video.videoId });
    expect(opened.status).toBe(200);
    const { playlist, segments } = await firstRendition(suite.origin, suite.video.url, session);
    return { student, session, code: (opened.body as { code: string }).code, playlist, segments };
  }

  it('plays a marked video: ffmpeg decodes the whole of it', async () => {
    const { session } = await viewer();
    const decoded = await decodeHls(`${suite.origin}${suite.video.url}`, session);
    expect(decoded.seconds).toBeCloseTo(SECONDS, 0);
    expect(decoded.frames).toBeGreaterThanOrEqual(SECONDS * 25 - 5);
  });

  it("lists each session's own sequence under opaque names, and a guessed name gets nothing", async () => {
    const [row] = await suite.media.server.ctx.db
      .select({ secret: videos.forensicSecret })
      .from(videos)
      .where(eq(videos.id, suite.video.videoId));
    const secret = openForensicSecret(suite.media.server.ctx.signingKey, suite.video.videoId, row!.secret)!;
    const packaged = (await suite.media.objectText(`videos/${suite.video.videoId}/v180/index.m3u8`))!.split(
      '\n',
    );
    const a = packaged.filter((l) => l && !l.startsWith('#'));
    const b = packaged.filter((l) => l.startsWith(VARIANT_B_TAG)).map((l) => l.slice(VARIANT_B_TAG.length));
    expect(a).toHaveLength(SEGMENTS);
    expect(b).toHaveLength(SEGMENTS);
    // Cut on the marked grid: one bit of the session's sequence every MARK_SEGMENT_SECONDS.
    const lengths = packaged.flatMap((l) => /^#EXTINF:([\d.]+)/.exec(l)?.[1] ?? []).map(Number);
    for (const length of lengths) expect(length).toBeCloseTo(MARK_SEGMENT_SECONDS, 1);

    const first = await viewer();
    const seen: string[][] = [];
    for (let i = 0; i < 6; i++) {
      const v = i === 0 ? first : await viewer();
      const files = v.segments.map(fileOf);
      // Names look alike whatever the variant, and the packaged tag never reaches a player.
      for (const file of files) expect(file).toMatch(VARIANT_FILE_PATTERN);
      expect(v.playlist).not.toContain('VARIANT');
      // Exactly the variants this session's code picks.
      const [session] = await suite.media.server.ctx.db
        .select({ code: playbackSessions.code })
        .from(playbackSessions)
        .where(
          and(eq(playbackSessions.userId, v.student.id), eq(playbackSessions.videoId, suite.video.videoId)),
        )
        .orderBy(desc(playbackSessions.startedAt))
        .limit(1);
      expect(session!.code).toBe(v.code);
      const sequence = sessionSequence(secret, v.code, SEGMENTS);
      expect(files).toEqual(a.map((name, k) => (sequence[k] ? b[k] : name)));
      seen.push(files);
      if (seen.some((other) => other.join() !== files.join())) break;
    }
    expect(new Set(seen.map((s) => s.join())).size).toBeGreaterThan(1);

    // A name nobody was given: a link signs the file it names, so it does not match (403).
    const link = new URL(first.segments[0]!);
    link.pathname = link.pathname.replace(/f_[0-9a-f]{32}\.ts$/, `f_${'0123456789abcdef'.repeat(2)}.ts`);
    const guessed = await get(link, first.session);
    expect([403, 404]).toContain(guessed.status);
  });

  it("refuses the other variant's name put into a session's own link (a student cannot fetch both)", async () => {
    const packaged = (await suite.media.objectText(`videos/${suite.video.videoId}/v180/index.m3u8`))!.split(
      '\n',
    );
    const a = packaged.filter((l) => l && !l.startsWith('#'));
    const b = packaged.filter((l) => l.startsWith(VARIANT_B_TAG)).map((l) => l.slice(VARIANT_B_TAG.length));
    const mine = await viewer();
    const own = new URL(mine.segments[0]!);
    expect((await get(own, mine.session)).status).toBe(200);
    // The name of the variant this session was not given, at the same position, under its own link.
    const given = fileOf(mine.segments[0]!);
    const other = given === a[0] ? b[0]! : a[0]!;
    const swapped = new URL(own);
    swapped.pathname = swapped.pathname.replace(given, other);
    expect((await get(swapped, mine.session)).status).toBe(403);
  });
});
