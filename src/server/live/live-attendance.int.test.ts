import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { LIVE_ATTENDANCE_CSV_HEADER } from '../../contract/live-attendance';
import { auditEvents, liveClasses, users, videoAccess, videos } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import { createCourseVia, enrolVia, scheduleClassVia, UNKNOWN } from '../../../test/support/course-fixtures';
import { OPEN_TIME, suiteAdmin, suiteServer } from '../../../test/support/test-server';

describe.each(testEngines())('live class attendance (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  /** The class's lecture as the ingest leaves it once streaming: ready, 10 minutes long so far. */
  async function goLive(live: { _id: string; videoId: string }) {
    const now = server.clock.now();
    await server.ctx.db
      .update(videos)
      .set({ status: 'ready', durationSeconds: 600, updatedAt: now })
      .where(eq(videos.id, live.videoId));
    await server.ctx.db
      .update(liveClasses)
      .set({ status: 'live', liveAt: now })
      .where(eq(liveClasses.id, live._id));
  }
  const end = (live: { _id: string }) =>
    server.ctx.db
      .update(liveClasses)
      .set({ status: 'ended', endedAt: server.clock.now() })
      .where(eq(liveClasses.id, live._id));

  it('records who joined live, minutes live and of the recording, and answers them as JSON and CSV', async () => {
    server.clock.set(OPEN_TIME);
    const course = await createCourseVia(admin);
    const { client: asha, student: a } = await server.studentClient();
    const { client: ravi, student: r } = await server.studentClient();
    const { client: outsider } = await server.studentClient();
    await enrolVia(admin, course._id, [a.id, r.id]);
    // A name a spreadsheet would run as a formula.
    await server.ctx.db.update(users).set({ name: '=HYPERLINK("x")' }).where(eq(users.id, r.id));
    const created = await scheduleClassVia(admin, course._id, OPEN_TIME);
    expect(created.status).toBe(201);
    const live = created.body;

    const report = async () => {
      const res = await admin.get(`/api/admin/live-classes/${live._id}/attendance`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    // Before the class: both students listed, nobody joined.
    expect((await report()).summary).toEqual({ students: 2, joined: 0, watchedRecording: 0 });

    // A key fetched before the class is live joins nothing.
    await asha.get(`/stream/videos/${live.videoId}/keys/0`);
    expect((await report()).summary.joined).toBe(0);

    await goLive(live);
    server.clock.advance(30_000);
    const joinedAt = server.clock.now().toISOString();
    await asha.get(`/stream/videos/${live.videoId}/keys/0`);
    // The outsider is refused at the key and joins nothing.
    expect((await outsider.get(`/stream/videos/${live.videoId}/keys/0`)).status).toBe(403);
    const save = (client: typeof asha, ranges: [number, number][]) =>
      client.post('/api/progress', {
        videoId: live.videoId,
        position: ranges.at(-1)![1],
        watched: 0,
        ranges,
        rate: 1,
      });
    expect((await save(asha, [[0, 20]])).status).toBe(200);
    server.clock.advance(60_000);
    expect((await save(asha, [[20, 80]])).status).toBe(200);
    // A later key joins no later: the first counts.
    server.clock.advance(5_000);
    await asha.get(`/stream/videos/${live.videoId}/keys/1`);

    await end(live);
    server.clock.advance(120_000);
    expect((await save(ravi, [[0, 30]])).status).toBe(200);
    expect((await save(asha, [[100, 190]])).status).toBe(200);
    // A key of the recording is no join.
    await ravi.get(`/stream/videos/${live.videoId}/keys/0`);

    const body = await report();
    expect(body.class).toMatchObject({ _id: live._id, status: 'ended', minutes: 60 });
    expect(body.summary).toEqual({ students: 2, joined: 1, watchedRecording: 2 });
    const byId = Object.fromEntries(body.students.map((s: { studentId: string }) => [s.studentId, s]));
    expect(byId[a.id]).toMatchObject({ joinedAt, liveMinutes: 1, recordingMinutes: 2 });
    expect(byId[r.id]).toMatchObject({ joinedAt: null, liveMinutes: 0, recordingMinutes: 1 });

    const csv = await admin.get<string>(`/api/admin/live-classes/${live._id}/attendance?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(
      /attachment; filename="live-class-.*-attendance\.csv"/,
    );
    const rows = parse(csv.body.replace(/^\uFEFF/, '')) as string[][];
    expect(rows[0]).toEqual([...LIVE_ATTENDANCE_CSV_HEADER]);
    expect(rows).toHaveLength(3);
    expect(rows.find((row) => row[2] === r.username)![1]).toBe(`'=HYPERLINK("x")`);
    expect(rows.find((row) => row[2] === a.username)!.slice(3)).toEqual([joinedAt, '1', '2']);
  });

  it('grants students enrolled after a class was scheduled its lecture, audited', async () => {
    server.clock.set(OPEN_TIME);
    const course = await createCourseVia(admin);
    const live = (await scheduleClassVia(admin, course._id, OPEN_TIME)).body;
    const { student: late } = await server.studentClient();
    await enrolVia(admin, course._id, [late.id]);
    const grants = await server.ctx.db
      .select()
      .from(videoAccess)
      .where(and(eq(videoAccess.videoId, live.videoId), eq(videoAccess.studentId, late.id)));
    expect(grants).toHaveLength(1);
    const audited = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'video.grant'), eq(auditEvents.studentId, late.id)));
    expect(audited.map((e) => e.videoId)).toContain(live.videoId);
    // Extending the access grants nothing twice.
    await enrolVia(admin, course._id, [late.id]);
    const again = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'video.grant'), eq(auditEvents.studentId, late.id)));
    expect(again).toHaveLength(audited.length);
  });

  it('answers staff of the course only, and 404 for an unknown class', async () => {
    server.clock.set(OPEN_TIME);
    const mine = await createCourseVia(admin);
    const theirs = await createCourseVia(admin);
    const { client: tutor } = await server.instructorClient([mine._id]);
    const { client: student } = await server.studentClient();
    const ours = (await scheduleClassVia(admin, mine._id, OPEN_TIME)).body;
    const other = (await scheduleClassVia(admin, theirs._id, OPEN_TIME)).body;
    expect((await tutor.get(`/api/admin/live-classes/${ours._id}/attendance`)).status).toBe(200);
    expect((await tutor.get(`/api/admin/live-classes/${other._id}/attendance`)).status).toBe(403);
    expect((await student.get(`/api/admin/live-classes/${ours._id}/attendance`)).status).toBe(403);
    const unknown = await admin.get(`/api/admin/live-classes/${UNKNOWN}/attendance`);
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.message).toBe('string');
    const badFormat = await admin.get(`/api/admin/live-classes/${ours._id}/attendance?format=xls`);
    expect(badFormat.status).toBe(400);
  });
});
