import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { liveClasses, videos } from '../db/schema';
import { createMediaTools } from '../storage/ffmpeg';
import { decryptSegment } from '../media/packaging/segment-keys';
import { get, playlistUris } from '../../../test/support/delivery';
import {
  bothRungs,
  classEnded,
  encode as publish,
  liveSuiteServer,
  scheduledClass,
  until,
} from '../../../test/support/live-encoder';
import { suiteAdmin } from '../../../test/support/test-server';
import { LiveIngest } from './ingest';

describe('live ingest over SRT', () => {
  const server = liveSuiteServer({ LIVE_RECONNECT_SECONDS: '2', KEY_ROTATION_SECONDS: '4' });
  const admin = suiteAdmin(server);
  let ingest: LiveIngest | undefined;
  afterAll(() => ingest?.stop());

  it('opens the listener of a class scheduled between two looks at once, not at the next look', async () => {
    // Looks a minute apart: only the scheduling's wake can open the listener within 10 s.
    const waiting = new LiveIngest(
      server.ctx,
      createMediaTools(server.ctx.config),
      60_000,
      undefined,
      60_000,
    );
    waiting.start();
    try {
      const { live } = await scheduledClass(server, admin, 'Scheduled between looks');
      await until('the listener', async () => waiting.active === 1, 10_000);
      // Done with it: ended, so the tests below see only their own classes.
      await server.ctx.db.update(liveClasses).set({ status: 'ended' }).where(eq(liveClasses.id, live._id));
    } finally {
      await waiting.stop();
    }
  }, 60_000);

  it('refuses a wrong passphrase, packages a live class into growing encrypted playlists for students with access, and ends it after the grace', async () => {
    const { course, student, live } = await scheduledClass(server, admin, 'Live over SRT');
    const { client: outsider } = await server.studentClient();
    const srtUrl = live.ingest.srtUrl.replace('localhost', '127.0.0.1');

    ingest = new LiveIngest(server.ctx, createMediaTools(server.ctx.config), 250);
    ingest.start();
    await until('the listener', async () => ingest!.active === 1);
    await new Promise((r) => setTimeout(r, 500)); // ffmpeg opening its socket

    // A wrong passphrase is refused in SRT's handshake: not one byte reaches the class.
    const wrong = srtUrl.replace(/passphrase=[0-9a-f]+/, 'passphrase=not-the-class-key-0000');
    expect(await publish(wrong, 3)).not.toBe(0);
    const [before] = await server.ctx.db.select().from(videos).where(eq(videos.id, live.videoId));
    expect(before!.status).toBe('processing');
    expect(before!.renditions).toEqual([]);

    const publishing = publish(srtUrl, 12);
    const master = `${server.url}/stream/videos/${live.videoId}/master.m3u8`;
    // Both rungs: the copied 480p and the 360p.
    const masterText = await bothRungs(master, student.token);
    const [, status] = await server.ctx.db
      .select({ status: liveClasses.status })
      .from(liveClasses)
      .where(eq(liveClasses.id, live._id))
      .then((rows) => ['', rows[0]!.status]);
    expect(status).toBe('live');
    const listed = await student.get(`/api/courses/${course._id}/live-classes`);
    expect(listed.body[0]).toMatchObject({ _id: live._id, status: 'live' });

    // A student without access is refused at the master playlist.
    expect((await get(master, outsider.token)).status).toBe(403);

    const child = playlistUris(masterText, master)[0]!;
    const first = await (await get(child, student.token)).text();
    expect(first).not.toContain('#EXT-X-ENDLIST');
    expect(first).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(first).toMatch(/#EXT-X-PROGRAM-DATE-TIME:\d{4}-\d\d-\d\dT/);
    const firstCount = playlistUris(first, child).length;
    // It grows while the encoder sends, past the first 4 s key period.
    const later = await until('a longer playlist over two key periods', async () => {
      const text = await (await get(child, student.token)).text();
      return playlistUris(text, child).length > firstCount && text.includes('/keys/1') && text;
    });

    // The first segment decrypts with the key the playlist names, into MPEG-TS.
    const uris = playlistUris(later, child);
    const keyUri = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(later)![1]!;
    const key = Buffer.from(await (await get(new URL(keyUri, child), student.token)).arrayBuffer());
    expect(key.length).toBe(16);
    const segment = Buffer.from(await (await get(uris[0]!, student.token)).arrayBuffer());
    // Not MPEG-TS as it is: its packets' sync bytes are not all there (one byte alone is 0x47 in
    // one encrypted segment of 256, as a CI run found).
    expect([0, 188, 376].map((at) => segment[at])).not.toEqual([0x47, 0x47, 0x47]);
    const plain = decryptSegment(segment, key, 0);
    expect(plain[0]).toBe(0x47);
    expect(plain[188]).toBe(0x47);
    // The outsider gets no key.
    expect((await get(new URL(keyUri, child), outsider.token)).status).toBe(403);
    // Keys rotate: 4 s periods over a class of several seconds.
    const periods = new Set([...later.matchAll(/URI="[^"]*\/keys\/(\d+)"/g)].map((m) => m[1]));
    expect(periods.size).toBeGreaterThan(1);

    expect(await publishing).toBe(0);
    // The encoder stopped: after the 2 s grace the class ends and the playlist gets its end.
    await classEnded(server, live._id, 20_000);
    const ended = await (await get(child, student.token)).text();
    expect(ended).toContain('#EXT-X-ENDLIST');
    const [video] = await server.ctx.db.select().from(videos).where(eq(videos.id, live.videoId));
    expect(video!.status).toBe('ready');
    expect(video!.durationSeconds).toBeGreaterThan(6);
  }, 90_000);

  it('publishes a segment as soon as ffmpeg lists it, not at the next step', async () => {
    await ingest?.stop();
    const { student, live } = await scheduledClass(server, admin, 'Live between steps');
    const srtUrl = live.ingest.srtUrl.replace('localhost', '127.0.0.1');
    // One step opens the listener and the next is an hour away: only ffmpeg's playlist changing publishes.
    ingest = new LiveIngest(server.ctx, createMediaTools(server.ctx.config), 3_600_000);
    await ingest.tick();
    expect(ingest.active).toBe(1);
    await new Promise((r) => setTimeout(r, 500)); // ffmpeg opening its socket
    const publishing = publish(srtUrl, 6);
    await bothRungs(`${server.url}/stream/videos/${live.videoId}/master.m3u8`, student.token);
    const [row] = await server.ctx.db
      .select({ status: liveClasses.status })
      .from(liveClasses)
      .where(eq(liveClasses.id, live._id));
    expect(row!.status).toBe('live');
    expect(await publishing).toBe(0);
  }, 60_000);

  it('goes on with a class after a restart of its node, past the files its last run published and removed', async () => {
    await ingest?.stop();
    // Only this test's class is live.
    await server.ctx.db.update(liveClasses).set({ status: 'ended' });
    const { student, live } = await scheduledClass(server, admin, 'Live through a restart');
    const srtUrl = live.ingest.srtUrl.replace('localhost', '127.0.0.1');
    const master = `${server.url}/stream/videos/${live.videoId}/master.m3u8`;
    const segments = async () => {
      const text = await (await get(master, student.token)).text();
      const child = playlistUris(text, master)[0]!;
      return (await (await get(child, student.token)).text()).match(/^[^#].*\.ts/gm)?.length ?? 0;
    };
    const before = new LiveIngest(server.ctx, createMediaTools(server.ctx.config), 3_600_000);
    await before.tick();
    await new Promise((r) => setTimeout(r, 500)); // ffmpeg opening its socket
    const first = publish(srtUrl, 6);
    await bothRungs(master, student.token);
    await first;
    await before.stop();
    const published = await segments();

    // The node again: its scratch folder still has the last run's playlists, whose segments were
    // published and removed. Its first step takes the class (no error), and the class goes on.
    ingest = new LiveIngest(server.ctx, createMediaTools(server.ctx.config), 3_600_000);
    await ingest.tick();
    expect(ingest.active).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    const second = publish(srtUrl, 4);
    await until('segments after the restart', async () => (await segments()) > published, 20_000);
    expect(await second).toBe(0);
  }, 60_000);
});
