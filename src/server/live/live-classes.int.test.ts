import { describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../cli-commands';
import { eq } from 'drizzle-orm';
import { liveMessages } from '../../contract/live';
import { liveClasses, users } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import { createCourseVia, enrolVia, scheduleClassVia, UNKNOWN } from '../../../test/support/course-fixtures';
import { suiteAdmin, suiteServer } from '../../../test/support/test-server';

/** 15:30 in Asia/Kolkata on the suite's day (OPEN_TIME is 13:30 there): inside opening hours. */
const AFTERNOON = '2026-03-02T10:00:00.000Z';

describe.each(testEngines())('live classes (%s)', (engine) => {
  const server = suiteServer({ engine, env: { LIVE_INGEST_HOST: 'live.school.test' } });
  const admin = suiteAdmin(server);

  async function scheduled(courseId: string, overrides: Record<string, unknown> = {}) {
    const res = await scheduleClassVia(admin, courseId, AFTERNOON, {
      description: 'Bring questions; we code together.',
      ...overrides,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  it('schedules a class with its own key and ingest addresses, shown to staff only', async () => {
    const course = await createCourseVia(admin);
    const live = await scheduled(course._id);
    expect(live).toMatchObject({
      courseId: course._id,
      status: 'scheduled',
      minutes: 60,
      startsAt: AFTERNOON,
    });
    const { srtUrl, rtmpUrl, streamKey } = live.ingest;
    expect(streamKey).toMatch(/^[0-9a-f]{32}$/);
    expect(srtUrl).toMatch(
      new RegExp(`^srt://live\\.school\\.test:97\\d\\d\\?streamid=${live._id}&passphrase=${streamKey}$`),
    );
    expect(rtmpUrl).toBe('rtmp://live.school.test:1935/live');

    // The row never holds the key as text.
    const [row] = await server.ctx.db.select().from(liveClasses).where(eq(liveClasses.id, live._id));
    expect(row!.streamKey).not.toContain(streamKey);

    // A second class gets another port and another key.
    const other = await scheduled(course._id, { title: 'Second class' });
    expect(other.ingest.streamKey).not.toBe(streamKey);
    expect(other.ingest.srtUrl.split('?')[0]).not.toBe(srtUrl.split('?')[0]);

    // Rotating gives a new key; the list shows it.
    const rotated = await admin.post(`/api/admin/live-classes/${live._id}/key`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.ingest.streamKey).not.toBe(streamKey);
    const list = await admin.get('/api/admin/live-classes');
    const listed = list.body.classes.find((c: { _id: string }) => c._id === live._id);
    expect(listed.ingest.streamKey).toBe(rotated.body.ingest.streamKey);
  });

  it('refuses a start outside opening hours, bad input and unknown classes with a message', async () => {
    const course = await createCourseVia(admin);
    const late = await admin.post('/api/admin/live-classes', {
      courseId: course._id,
      title: 'Late night',
      startsAt: '2026-03-02T17:00:00Z', // 22:30 in Asia/Kolkata
      minutes: 60,
    });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe(liveMessages.outsideHours('10:00–22:00 Asia/Kolkata'));
    // Starting at 21:30 and running past closing is fine.
    await scheduled(course._id, { startsAt: '2026-03-02T16:00:00Z', minutes: 90 });

    const bad = await admin.post('/api/admin/live-classes', { courseId: course._id, title: '', minutes: 2 });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');
    const past = await admin.post('/api/admin/live-classes', {
      courseId: course._id,
      title: 'Yesterday',
      startsAt: '2026-03-01T06:00:00Z',
      minutes: 60,
    });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(liveMessages.alreadyOver);
    const noCourse = await admin.post('/api/admin/live-classes', {
      courseId: UNKNOWN,
      title: 'Nowhere',
      startsAt: AFTERNOON,
      minutes: 30,
    });
    expect(noCourse.status).toBe(404);
    for (const res of [
      await admin.request('PATCH', `/api/admin/live-classes/${UNKNOWN}`, { json: { title: 'x' } }),
      await admin.request('DELETE', '/api/admin/live-classes/not-a-uuid'),
      await admin.post(`/api/admin/live-classes/${UNKNOWN}/key`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(liveMessages.notFound);
    }
  });

  it('lets enrolled students list the classes and add one to their calendar; others get 403', async () => {
    const course = await createCourseVia(admin);
    const { client: student, student: s } = await server.studentClient();
    const { client: outsider } = await server.studentClient();
    await enrolVia(admin, course._id, [s.id]);
    const live = await scheduled(course._id, { title: 'Async, live; with commas' });

    const list = await student.get(`/api/courses/${course._id}/live-classes`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        _id: live._id,
        videoId: live.videoId,
        title: 'Async, live; with commas',
        startsAt: AFTERNOON,
        minutes: 60,
        status: 'scheduled',
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(live.ingest.streamKey);

    const ics = await student.get(`/api/live-classes/${live._id}/calendar.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toContain('text/calendar');
    const text = String(ics.body);
    expect(text).toContain(`UID:live-class-${live._id}@`);
    expect(text).toContain('DTSTART:20260302T100000Z');
    expect(text).toContain('DTEND:20260302T110000Z');
    expect(text).toContain('SUMMARY:Async\\, live\\; with commas');
    expect(text).not.toContain(live.ingest.streamKey);

    expect((await outsider.get(`/api/courses/${course._id}/live-classes`)).status).toBe(403);
    expect((await outsider.get(`/api/live-classes/${live._id}/calendar.ics`)).status).toBe(403);
  });

  it('edits and deletes: a scheduled class takes its empty lecture with it', async () => {
    const course = await createCourseVia(admin);
    const live = await scheduled(course._id);
    const moved = await admin.request('PATCH', `/api/admin/live-classes/${live._id}`, {
      json: { title: 'Closures, moved', startsAt: '2026-03-03T05:00:00Z', minutes: 45 },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      title: 'Closures, moved',
      startsAt: '2026-03-03T05:00:00.000Z',
      minutes: 45,
    });
    const outside = await admin.request('PATCH', `/api/admin/live-classes/${live._id}`, {
      json: { startsAt: '2026-03-03T20:00:00Z' },
    });
    expect(outside.status).toBe(400);

    const gone = await admin.request('DELETE', `/api/admin/live-classes/${live._id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.message).toBe(liveMessages.deleted);
    const videos = await admin.get('/api/admin/getvideolist');
    expect(JSON.stringify(videos.body)).not.toContain(live.videoId);
  });

  it('live:create prints the SRT address, the RTMP server and the stream key, one per line', async () => {
    const course = await createCourseVia(admin);
    const command = COMMANDS.find((c) => c.name === 'live:create')!;
    if (command.needs !== 'runtime') throw new Error('live:create needs the runtime');
    const [me] = await server.ctx.db
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, admin.id));
    const username = me!.username;
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const code = await command.run({
        ctx: server.ctx,
        positionals: [],
        values: { course: course._id, title: 'From the shell', starts: AFTERNOON, minutes: '45', username },
      });
      expect(code).toBe(0);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
    expect(lines).toHaveLength(3);
    const [srt, rtmp, key] = lines as [string, string, string];
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(srt).toMatch(/^srt:\/\/live\.school\.test:\d+\?streamid=[0-9a-f-]{36}&passphrase=[0-9a-f]{32}$/);
    expect(srt.endsWith(`passphrase=${key}`)).toBe(true);
    expect(rtmp).toBe('rtmp://live.school.test:1935/live');
    const list = await admin.get('/api/admin/live-classes');
    const listed = list.body.classes.find((c: { title: string }) => c.title === 'From the shell');
    expect(listed).toMatchObject({ courseId: course._id, minutes: 45, ingest: { streamKey: key } });
  });

  it("keeps an instructor to their own courses' classes", async () => {
    const mine = await createCourseVia(admin);
    const theirs = await createCourseVia(admin);
    const { client: tutor } = await server.instructorClient([mine._id]);
    const other = await scheduled(theirs._id);
    const officeHours = { title: 'Office hours', minutes: 30 };
    const created = await scheduleClassVia(tutor, mine._id, AFTERNOON, officeHours);
    expect(created.status).toBe(201);
    expect((await scheduleClassVia(tutor, theirs._id, AFTERNOON, officeHours)).status).toBe(403);
    const list = await tutor.get('/api/admin/live-classes');
    expect(list.body.classes.map((c: { _id: string }) => c._id)).toEqual([created.body._id]);
    expect((await tutor.post(`/api/admin/live-classes/${other._id}/key`)).status).toBe(403);
  });
});
