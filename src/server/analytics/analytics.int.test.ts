import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsMessages, type AnalyticsCheckpoint } from '../../contract/analytics';
import { testEngines } from '../../../test/support/databases';
import {
  download,
  enrol,
  renameStudent,
  saveRanges,
  watchedCourse,
} from '../../../test/support/watch-fixtures';
import { OPEN_TIME, TestServer } from '../../../test/support/test-server';

const DAY = 86_400_000;

describe.each(testEngines())('learning analytics API (%s)', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ engine });
  });
  afterAll(() => server?.close());

  /** Three students in a course of three 100-s videos: Asha watches most, Ben a little, Chitra nothing. */
  async function cohort() {
    server.clock.set(OPEN_TIME);
    const people = await Promise.all([1, 2, 3].map(() => server.createActiveStudent()));
    await renameStudent(server, people[0]!, 'Asha Rao');
    await renameStudent(server, people[1]!, 'Ben Okafor');
    await renameStudent(server, people[2]!, '=HYPERLINK("x")');
    const course = await watchedCourse(server, people, [100, 100, 100]);
    const [asha, ben] = await Promise.all(people.slice(0, 2).map((p) => server.studentClient(p)));
    for (let from = 0; from < 100; from += 20) {
      await saveRanges(asha!.client, course.videoIds[0]!, [[from, from + 20]]);
      server.clock.advance(15_000);
    }
    await saveRanges(asha!.client, course.videoIds[1]!, [[0, 10]]);
    server.clock.advance(15_000);
    await saveRanges(ben!.client, course.videoIds[0]!, [[0, 10]]);
    const { client: admin } = await server.adminClient();
    return { people, admin, ...course };
  }

  it('draws a video retention curve with completion, median and the biggest drop-off', async () => {
    const { admin, videoIds } = await cohort();
    const res = await admin.get(`/api/admin/analytics/videos/${videoIds[0]}`);
    expect(res.status).toBe(200);
    const a = res.body;
    expect(a.video).toMatchObject({ _id: videoIds[0], title: 'Lecture 1', durationSeconds: 100 });
    expect(a).toMatchObject({
      bucketSeconds: 5,
      studentsWithAccess: 3,
      viewers: 2,
      completed: 1,
      completionRate: 1 / 3,
      medianShareWatched: 0.1,
      biggestDropOff: { start: 10, lost: 1 },
    });
    expect(a.buckets).toHaveLength(20);
    expect(a.buckets.map((b: { viewers: number }) => b.viewers)).toEqual([2, 2, ...Array(18).fill(1)]);
    expect(a.buckets[0]).toEqual({ start: 0, viewers: 2, plays: 2 });
  });

  it('shows an unwatched video with zero viewers and no drop-off', async () => {
    const { admin, videoIds } = await cohort();
    const a = (await admin.get(`/api/admin/analytics/videos/${videoIds[2]}`)).body;
    expect(a).toMatchObject({
      viewers: 0,
      completed: 0,
      completionRate: 0,
      medianShareWatched: 0,
      biggestDropOff: null,
    });
    expect(a.buckets.every((b: { viewers: number; plays: number }) => b.viewers === 0 && b.plays === 0)).toBe(
      true,
    );
  });

  it('grids students x videos, sorted, paged and filtered to those at risk', async () => {
    const { admin, courseId, people, videoIds } = await cohort();
    const byShare = (await admin.get(`/api/admin/analytics/courses/${courseId}?sort=share&order=desc`)).body;
    expect(byShare.videos.map((v: { _id: string }) => v._id)).toEqual(videoIds);
    expect(byShare.totals).toEqual({ students: 3, atRisk: 2 });
    expect(byShare.students.map((s: { name: string }) => s.name)).toEqual([
      'Asha Rao',
      'Ben Okafor',
      '=HYPERLINK("x")',
    ]);
    const asha = byShare.students[0];
    expect(asha).toMatchObject({
      _id: people[0]!.id,
      access: 'active',
      atRisk: false,
      videosStarted: 2,
      videosCompleted: 1,
      watchedShare: 0.3667,
      watchSeconds: 110,
    });
    expect(asha.cells).toEqual([
      { share: 1, completed: true },
      { share: 0.1, completed: false },
      { share: 0, completed: false },
    ]);
    expect(Date.parse(asha.lastActivity)).toBeGreaterThan(Date.parse(OPEN_TIME));

    const risky = (await admin.get(`/api/admin/analytics/courses/${courseId}?filter=at-risk&sort=name`)).body;
    expect(risky.total).toBe(2);
    expect(risky.students.map((s: { name: string }) => s.name)).toEqual(['=HYPERLINK("x")', 'Ben Okafor']);

    const page2 = (await admin.get(`/api/admin/analytics/courses/${courseId}?sort=name&pageSize=2&page=2`))
      .body;
    expect([page2.total, page2.students.map((s: { name: string }) => s.name)]).toEqual([3, ['Ben Okafor']]);

    // A week without a save puts even Asha at risk; an expired enrolment is never at risk.
    server.clock.advance(8 * DAY);
    const { client: admin2 } = await server.adminClient(); // sessions last a day
    const later = (await admin2.get(`/api/admin/analytics/courses/${courseId}?filter=at-risk`)).body;
    expect(later.total).toBe(3);
    server.clock.advance(30 * DAY);
    const { client: admin3 } = await server.adminClient();
    const expired = (await admin3.get(`/api/admin/analytics/courses/${courseId}`)).body;
    expect(expired.totals.atRisk).toBe(0);
    expect(expired.students[0].access).toBe('expired');
  });

  it('exports the grid as CSV: BOM, CRLF, students x videos rows, formulas defused', async () => {
    const { admin, courseId, people } = await cohort();
    const { status, headers, bytes } = await download(
      admin,
      `/api/admin/analytics/courses/${courseId}?format=csv`,
    );
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('content-disposition')).toMatch(
      /^attachment; filename="course-W\d+-batch7-all\.csv"$/,
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n')).toHaveLength(1 + 9 + 1);
    const rows: Record<string, string>[] = parse(bytes, {
      bom: true,
      columns: true,
      record_delimiter: '\r\n',
    });
    expect(rows).toHaveLength(3 * 3);
    expect(Object.keys(rows[0]!)).toEqual([
      'student_id', 'rollno', 'student_name', 'email', 'access', 'at_risk', 'course_watched_share',
      'total_watch_seconds', 'last_activity', 'video_position', 'video_id', 'video_title',
      'video_duration_seconds', 'watched_share', 'completed',
    ]); // prettier-ignore
    const injected = rows.filter((r) => r.student_id === people[2]!.id);
    expect(injected.map((r) => r.student_name)).toEqual(Array(3).fill(`'=HYPERLINK("x")`));
    const ashaFirst = rows.find((r) => r.student_id === people[0]!.id && r.video_position === '1')!;
    expect(ashaFirst).toMatchObject({
      watched_share: '1',
      completed: 'true',
      access: 'active',
      at_risk: 'false',
    });
  });

  it("shows one student's courses, videos and the last 30 days of watch time, also as CSV", async () => {
    const { admin, people, courseId, videoIds } = await cohort();
    const res = await admin.get(`/api/admin/analytics/students/${people[0]!.id}`);
    expect(res.status).toBe(200);
    const a = res.body;
    expect(a.student).toMatchObject({ _id: people[0]!.id, name: 'Asha Rao' });
    expect(a.timeZone).toBe('Asia/Kolkata');
    expect(a.days).toHaveLength(30);
    expect(a.days.at(-1)).toEqual({ day: '2026-03-02', seconds: 110 });
    expect(a.days.slice(0, -1).every((d: { seconds: number }) => d.seconds === 0)).toBe(true);
    const course = a.courses.find((c: { _id: string }) => c._id === courseId);
    expect(course).toMatchObject({
      totalVideos: 3,
      videosStarted: 2,
      videosCompleted: 1,
      watchSeconds: 110,
      atRisk: false,
    });
    expect(
      course.videos.map((v: { _id: string; share: number; weekSeconds: number }) => [
        v._id,
        v.share,
        v.weekSeconds,
      ]),
    ).toEqual([
      [videoIds[0], 1, 100],
      [videoIds[1], 0.1, 10],
      [videoIds[2], 0, 0],
    ]);
    const csv = await download(admin, `/api/admin/analytics/students/${people[0]!.id}?format=csv`);
    const rows: Record<string, string>[] = parse(csv.bytes, { bom: true, columns: true });
    // Row by row, one a video in course order: what the JSON above said.
    expect(
      rows.map((r) => [r.video_title, r.watched_share, r.completed, r.watch_seconds_last_7_days]),
    ).toEqual([
      ['Lecture 1', '1', 'true', '100'],
      ['Lecture 2', '0.1', 'false', '10'],
      ['Lecture 3', '0', 'false', '0'],
    ]);
  });

  it('exports a retention curve as CSV, one row per bucket', async () => {
    const { admin, videoIds } = await cohort();
    const csv = await download(admin, `/api/admin/analytics/videos/${videoIds[0]}?format=csv`);
    const rows: Record<string, string>[] = parse(csv.bytes, { bom: true, columns: true });
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual({
      bucket_start_seconds: '0',
      bucket_end_seconds: '5',
      viewers: '2',
      viewers_share: '0.6667',
      plays: '2',
    });
    expect(rows[19]).toMatchObject({ bucket_start_seconds: '95', bucket_end_seconds: '100', viewers: '1' });
  });

  it('shows each checkpoint on the retention curve and in the CSV: reached, answered, passed, attempts, answers', async () => {
    const { admin, videoIds, people } = await cohort();
    const place = async (t: number, what: object) => {
      const res = await admin.post(`/api/admin/videos/${videoIds[0]}/checkpoints`, {
        t,
        prompt: `Which one at ${t} s?`,
        required: false,
        ...what,
      });
      expect(res.status).toBe(201);
      return res.body.checkpoint._id as string;
    };
    const early = await place(7, { kind: 'single', choices: ['this', 'that'], answers: [1] });
    const late = await place(52, { kind: 'output', answers: ['42'] });
    const [asha, ben] = await Promise.all(people.slice(0, 2).map((p) => server.studentClient(p)));
    const answer = async (client: typeof admin, given: number | string, at = early) =>
      expect((await client.post(`/api/checkpoints/${at}/attempts`, { answer: given })).status).toBe(200);
    await answer(asha!.client, 1);
    await answer(ben!.client, 0);
    server.clock.advance(1_000); // the first try is the earlier one
    await answer(ben!.client, 1);
    // Outputs count as the judge reads them: line ends and trailing spaces don't tell them apart.
    await answer(asha!.client, '41', late);
    await answer(asha!.client, '41  \n', late);
    await answer(ben!.client, '41\r\n', late);
    server.clock.advance(1_000);
    await answer(ben!.client, '42\r\n', late);

    const a = (await admin.get(`/api/admin/analytics/videos/${videoIds[0]}`)).body;
    expect(a.checkpoints).toMatchObject([
      { _id: early, t: 7, kind: 'single', prompt: 'Which one at 7 s?', required: false },
      { _id: late, t: 52, kind: 'output' },
    ]);
    // Per checkpoint: reached, answered, passed, right at the first try, attempts in all.
    const figures = (c: AnalyticsCheckpoint) => [
      c.reached,
      c.answered,
      c.passed,
      c.firstTryCorrect,
      c.attempts,
    ];
    expect(a.checkpoints.map(figures)).toEqual([
      [2, 2, 2, 1, 3],
      [1, 2, 1, 0, 4],
    ]);
    // Per choice, in order (or per output, as the judge reads it): the attempts that gave it, and whether it is right.
    expect(a.checkpoints.map((c: AnalyticsCheckpoint) => c.distribution)).toEqual([
      [
        { answer: 'this', count: 1, correct: false },
        { answer: 'that', count: 2, correct: true },
      ],
      [
        { answer: '41', count: 3, correct: false },
        { answer: '42', count: 1, correct: true },
      ],
    ]);

    const csv = await download(admin, `/api/admin/analytics/videos/${videoIds[0]}?format=csv`);
    const rows: Record<string, string>[] = parse(csv.bytes, { bom: true, columns: true });
    expect(Object.keys(rows[0]!)).toEqual([
      'bucket_start_seconds',
      'bucket_end_seconds',
      'viewers',
      'viewers_share',
      'plays',
      ...[1, 2].flatMap((n) =>
        ['reached', 'answered', 'attempts', 'passed', 'first_try_correct'].map((f) => `checkpoint_${n}_${f}`),
      ),
    ]);
    // Each checkpoint's figures in the row of the bucket that holds its moment (5-10 s and 50-55 s).
    expect(rows[1]).toMatchObject({
      checkpoint_1_reached: '2',
      checkpoint_1_answered: '2',
      checkpoint_1_attempts: '3',
      checkpoint_1_passed: '2',
      checkpoint_1_first_try_correct: '1',
      checkpoint_2_attempts: '',
    });
    expect(rows[10]).toMatchObject({
      checkpoint_1_attempts: '',
      checkpoint_2_reached: '1',
      checkpoint_2_attempts: '4',
      checkpoint_2_passed: '1',
      checkpoint_2_first_try_correct: '0',
    });
    expect(rows.filter((r) => r.checkpoint_1_attempts !== '')).toHaveLength(1);
  });

  it('keeps course totals right when a video moves to another course or is deleted', async () => {
    const { admin, courseId, people, videoIds } = await cohort();
    const other = await watchedCourse(server, [], [50]);
    await enrol(server, other.courseId, people[0]!, new Date(Date.parse(OPEN_TIME) + 60 * DAY), []);
    const moved = await admin.post('/api/admin/video/update', {
      videoId: videoIds[0],
      title: 'Lecture 1',
      description: 'd',
      course: other.courseId,
    });
    expect(moved.status).toBe(200);
    const asha = async (id: string) =>
      (await admin.get(`/api/admin/analytics/courses/${id}?sort=share&order=desc`)).body.students[0];
    expect(await asha(courseId)).toMatchObject({ videosStarted: 1, videosCompleted: 0, watchSeconds: 10 });
    expect(await asha(other.courseId)).toMatchObject({
      videosStarted: 1,
      videosCompleted: 1,
      watchSeconds: 100,
    });
    expect((await admin.post('/api/admin/delete/video', { videoId: videoIds[1] })).status).toBe(200);
    expect(await asha(courseId)).toMatchObject({ videosStarted: 0, watchSeconds: 0, lastActivity: null });
  });

  it('answers 404 for unknown ids, 400 for bad queries, and only to admins', async () => {
    const { admin, courseId, people } = await cohort();
    for (const kind of ['videos', 'courses', 'students']) {
      expect((await admin.get(`/api/admin/analytics/${kind}/${crypto.randomUUID()}`)).status).toBe(404);
      expect((await admin.get(`/api/admin/analytics/${kind}/not-an-id`)).status).toBe(404);
    }
    // A student's id is not a course's, and an admin's is not a student's.
    expect((await admin.get(`/api/admin/analytics/courses/${people[0]!.id}`)).status).toBe(404);
    const bad = await admin.get(`/api/admin/analytics/courses/${courseId}?sort=mood`);
    expect([bad.status, bad.body.message]).toEqual([400, analyticsMessages.sortInvalid]);
    const format = await admin.get(`/api/admin/analytics/courses/${courseId}?format=xlsx`);
    expect([format.status, format.body.message]).toEqual([400, analyticsMessages.formatInvalid]);
    expect((await server.client().get(`/api/admin/analytics/courses/${courseId}`)).status).toBe(401);
    const { client: student } = await server.studentClient(people[0]!);
    expect((await student.get(`/api/admin/analytics/students/${people[0]!.id}`)).status).toBe(403);
  });
});

describe.runIf(testEngines().includes('postgres'))('course totals under concurrent saves (postgres)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ engine: 'postgres' });
  });
  afterAll(() => server?.close());

  /** Backends of the test's database waiting for a lock. */
  async function waitingOnLocks(probe: pg.Client) {
    const { rows } = await probe.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return rows[0]!.n;
  }
  async function until(what: string, ok: () => Promise<boolean>) {
    for (const start = Date.now(); !(await ok()); await new Promise((r) => setTimeout(r, 20)))
      if (Date.now() - start > 10_000) throw new Error(`timed out waiting for ${what}`);
  }

  it("recounts a course a video joins while a student's first save lands: no error, every second counted once", async () => {
    server.clock.set(OPEN_TIME);
    const [xav, yan] = await Promise.all([1, 2].map(() => server.createActiveStudent()));
    const course = await watchedCourse(server, [xav!, yan!], [100]);
    const arriving = await watchedCourse(server, [], [50]);
    const [x, y] = await Promise.all([xav!, yan!].map((s) => server.studentClient(s)));
    const { client: admin } = await server.adminClient();
    server.clock.advance(30_000);
    expect((await saveRanges(x!.client, course.videoIds[0]!, [[0, 10]])).status).toBe(200);
    server.clock.advance(30_000);

    const holder = new pg.Client({ connectionString: server.ctx.config.databaseUrl });
    const probe = new pg.Client({ connectionString: server.ctx.config.databaseUrl });
    await Promise.all([holder.connect(), probe.connect()]);
    try {
      // Xav's totals row is held, as by a save of his in flight…
      await holder.query('begin');
      await holder.query(
        `update course_watch_stats set played_seconds = played_seconds where student_id = $1`,
        [xav!.id],
      );
      // …when the admin moves a video into the course: its recount waits behind that save,
      const moving = admin.post('/api/admin/video/update', {
        videoId: arriving.videoIds[0],
        title: 'Lecture 2',
        description: 'd',
        course: course.courseId,
      });
      await until('the recount to wait', async () => (await waitingOnLocks(probe)) >= 1);
      // …and Yan's first save arrives meanwhile (it may wait for the recount, or land first).
      let ySettled = false;
      const ySave = saveRanges(y!.client, course.videoIds[0]!, [[0, 20]]).finally(() => (ySettled = true));
      await until('the save to land or wait', async () => ySettled || (await waitingOnLocks(probe)) >= 2);
      await holder.query('commit');

      expect((await moving).status).toBe(200);
      expect((await ySave).status).toBe(200);
    } finally {
      await holder.end();
      await probe.end();
    }
    const { body } = await admin.get(`/api/admin/analytics/courses/${course.courseId}?sort=share&order=desc`);
    const totals = Object.fromEntries(
      body.students.map((s: { _id: string; watchSeconds: number; videosStarted: number }) => [
        s._id,
        { watchSeconds: s.watchSeconds, videosStarted: s.videosStarted },
      ]),
    );
    expect(totals).toEqual({
      [xav!.id]: { watchSeconds: 10, videosStarted: 1 },
      [yan!.id]: { watchSeconds: 20, videosStarted: 1 },
    });
  });
});
