import { afterAll, describe, expect, it } from 'vitest';
import { createMediaTools } from '../storage/ffmpeg';
import { get, playlistUris } from '../../../test/support/delivery';
import { createCourseVia, enrolVia, scheduleClassVia, UNKNOWN } from '../../../test/support/course-fixtures';
import {
  bothRungs,
  classEnded,
  encode as publish,
  randomPort,
  until,
} from '../../../test/support/live-encoder';
import { suiteAdmin, suiteServer } from '../../../test/support/test-server';
import type { AdminLiveClass } from '../../contract/live';
import { LiveIngest } from './ingest';

/** 21:30 in Kolkata (open 10:00–22:00 by default): a class of an hour runs past closing. */
const LATE_START = '2026-03-02T16:00:00.000Z';
/** 22:10 in Kolkata: closed to students. */
const AFTER_CLOSING = '2026-03-02T16:40:00.000Z';

describe('a live class that runs past closing', () => {
  const base = randomPort();
  const server = suiteServer({
    engine: 'pglite',
    now: LATE_START,
    env: { LIVE_SRT_PORTS: `${base}-${base + 4}`, LIVE_RECONNECT_SECONDS: '2', KEY_ROTATION_SECONDS: '4' },
  });
  const admin = suiteAdmin(server);
  let ingest: LiveIngest | undefined;
  afterAll(() => ingest?.stop());

  it('keeps its playlists, keys, playback session, progress saves and questions open to its end, and nothing else', async () => {
    const course = await createCourseVia(admin);
    const { client: student, student: s } = await server.studentClient();
    await enrolVia(admin, course._id, [s.id]);
    const created = await scheduleClassVia(admin, course._id, LATE_START, { title: 'Late class' });
    expect(created.status).toBe(201);
    const live = created.body as AdminLiveClass;

    ingest = new LiveIngest(server.ctx, createMediaTools(server.ctx.config), 250);
    ingest.start();
    await until('the listener', async () => ingest!.active === 1);
    await new Promise((r) => setTimeout(r, 500)); // ffmpeg opening its socket
    const publishing = publish(live.ingest.srtUrl.replace('localhost', '127.0.0.1'), 10);
    const master = `${server.url}/stream/videos/${live.videoId}/master.m3u8`;
    const masterText = await bothRungs(master, student.token);

    // Closing time passes while the class runs.
    server.clock.set(AFTER_CLOSING);
    expect((await student.get(`/api/courses/${course._id}/live-classes`)).status).toBe(503);
    expect((await get(`${server.url}/stream/videos/${UNKNOWN}/master.m3u8`, student.token)).status).toBe(503);

    // The class's lecture: its playlists, keys, a playback session and progress saves still answer.
    expect((await get(master, student.token)).status).toBe(200);
    const child = playlistUris(masterText, master)[0]!;
    const playlist = await (await get(child, student.token)).text();
    expect(playlist).not.toContain('#EXT-X-ENDLIST');
    const keyUri = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(playlist)![1]!;
    const key = await get(new URL(keyUri, child), student.token);
    expect(key.status).toBe(200);
    expect((await student.post('/api/playback', { videoId: live.videoId })).status).toBe(200);
    const saved = await student.post('/api/progress', { videoId: live.videoId, position: 2, watched: 2 });
    expect(saved.status).toBe(200);

    // A question asked now is pinned to the class's time (the lecture's position, which the
    // recording keeps) and is in the staff queue at once; a moment the class has not reached is refused.
    // (1 s: the first segment, out by now; at 4 s a loaded machine may not have published that far.)
    const asked = await student.post(`/api/videos/${live.videoId}/questions`, {
      t: 1,
      title: 'Why does the closure keep i?',
      text: 'At the loop.',
    });
    expect(asked.status).toBe(201);
    const beyond = await student.post(`/api/videos/${live.videoId}/questions`, {
      t: 3600,
      title: 'From the future',
      text: '',
    });
    expect(beyond.status).toBe(400);
    const queue = await admin.get('/api/admin/questions');
    expect(queue.body.questions).toContainEqual(
      expect.objectContaining({ title: 'Why does the closure keep i?', t: 1, videoTitle: 'Late class' }),
    );

    // Once the class has ended, its recording waits for the morning like every lecture.
    expect(await publishing).toBe(0);
    await classEnded(server, live._id, 20_000);
    expect((await get(master, student.token)).status).toBe(503);
    expect((await get(new URL(keyUri, child), student.token)).status).toBe(503);
    expect((await student.post('/api/playback', { videoId: live.videoId })).status).toBe(503);
    const late = await student.post('/api/progress', { videoId: live.videoId, position: 3, watched: 3 });
    expect(late.status).toBe(503);
    const question = { t: 5, title: 'After the class', text: '' };
    expect((await student.post(`/api/videos/${live.videoId}/questions`, question)).status).toBe(503);
  }, 90_000);
});
