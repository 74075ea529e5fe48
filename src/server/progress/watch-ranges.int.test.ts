import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressMessages, saveLimits } from '../../contract/progress';
import { testEngines } from '../../../test/support/databases';
import { saveRanges, watchedCourse } from '../../../test/support/watch-fixtures';
import { OPEN_TIME, TestServer } from '../../../test/support/test-server';

describe.each(testEngines())('watched ranges (%s)', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ engine });
  });
  afterAll(() => server?.close());

  async function setUp(lengths = [100, 100]) {
    server.clock.set(OPEN_TIME);
    const { client, student } = await server.studentClient();
    const { client: admin } = await server.adminClient();
    const course = await watchedCourse(server, [student], lengths);
    const myProgress = async (videoId: string) =>
      (await client.post('/api/videos', { courseId: course.courseId })).body.videos.find(
        (v: { _id: string }) => v._id === videoId,
      ).progress;
    const retention = async (videoId: string) =>
      (await admin.get(`/api/admin/analytics/videos/${videoId}`)).body;
    return { client, student, admin, ...course, myProgress, retention };
  }

  it('counts each second once however often it is played, and every play of it', async () => {
    const { client, videoIds, retention } = await setUp();
    const id = videoIds[0]!;
    expect((await saveRanges(client, id, [[0, 10]])).body.progress).toEqual({
      position: 10,
      watched: 10,
      completed: false,
    });
    server.clock.advance(10_000);
    // Rewound and played 5..15 again: five new seconds.
    expect((await saveRanges(client, id, [[5, 15]])).body.progress.watched).toBe(15);
    const curve = await retention(id);
    expect(curve.buckets.slice(0, 4)).toEqual([
      { start: 0, viewers: 1, plays: 1 },
      { start: 5, viewers: 1, plays: 2 },
      { start: 10, viewers: 1, plays: 1 },
      { start: 15, viewers: 0, plays: 0 },
    ]);
  });

  it('ignores the watched total of a save that carries ranges, and never completes a seeked-through video', async () => {
    const { client, videoIds, myProgress } = await setUp();
    const id = videoIds[0]!;
    await saveRanges(client, id, [[0, 20]]);
    server.clock.advance(3_600_000);
    const seeked = await saveRanges(client, id, [[98, 100]], { position: 100, watched: 100 });
    expect(seeked.body.progress).toEqual({ position: 100, watched: 22, completed: false });
    expect(await myProgress(id)).toEqual({ position: 100, watched: 22, completed: false });
  });

  it('completes a video once 90% of its seconds were played', async () => {
    const { client, videoIds } = await setUp();
    const id = videoIds[0]!;
    let last;
    for (let from = 0; from < 90; from += 15) {
      last = await saveRanges(client, id, [[from, from + 15]]);
      server.clock.advance(10_000);
    }
    expect(last!.body.progress).toEqual({ position: 90, watched: 90, completed: true });
  });

  it('refuses a forged save claiming 10 minutes after 10 s, and stores nothing of it', async () => {
    const { client, videoIds, myProgress, retention } = await setUp([900]);
    const id = videoIds[0]!;
    await saveRanges(client, id, [[0, 10]]);
    const before = await retention(id);
    server.clock.advance(10_000);
    const forged = await saveRanges(client, id, [[10, 610]]);
    expect([forged.status, forged.body.message]).toEqual([400, progressMessages.rangesTooLong]);
    expect(await myProgress(id)).toEqual({ position: 10, watched: 10, completed: false });
    expect(await retention(id)).toEqual(before);
    // The first save of a video may claim at most 30 s.
    const first = await saveRanges(client, videoIds[0]!, [[0, 10]]);
    expect(first.status).toBe(200);
  });

  it('counts a save that arrives right after one held up on its way; carries at most 30 s of allowance', async () => {
    const { client, videoIds, myProgress } = await setUp([900]);
    const id = videoIds[0]!;
    expect((await saveRanges(client, id, [[0, 10]])).status).toBe(200);
    // The save sent at 10 s was held up and arrives with the one sent at 20 s: both count.
    server.clock.advance(20_000);
    expect((await saveRanges(client, id, [[10, 20]])).status).toBe(200);
    expect((await saveRanges(client, id, [[20, 30]])).status).toBe(200);
    expect(await myProgress(id)).toEqual({ position: 30, watched: 30, completed: false });
    // Ten idle minutes do not bank ten minutes at twice the speed: 30 s of it at most.
    server.clock.advance(600_000);
    expect((await saveRanges(client, id, [[30, 31]])).status).toBe(200);
    const banked = await saveRanges(client, id, [[31, 101]]);
    expect([banked.status, banked.body.message]).toEqual([400, progressMessages.rangesTooLong]);
    expect((await saveRanges(client, id, [[31, 91]])).status).toBe(200);
  });

  it('refuses ranges outside the video, out of order, overlapping or too many, with a message', async () => {
    const { client, videoIds, myProgress } = await setUp();
    const id = videoIds[0]!;
    server.clock.advance(60_000);
    const bad: [unknown, string][] = [
      [[[95, 101]], progressMessages.rangesInvalid],
      [[[10, 5]], progressMessages.rangesInvalid],
      [
        [
          [10, 20],
          [0, 5],
        ],
        progressMessages.rangesInvalid,
      ],
      [
        [
          [0, 10],
          [5, 12],
        ],
        progressMessages.rangesInvalid,
      ],
      [[[-1, 3]], progressMessages.rangesInvalid],
      [[[0, 'x']], progressMessages.rangesInvalid],
      [Array.from({ length: saveLimits.ranges + 1 }, (_, i) => [i, i + 0.5]), progressMessages.tooManyRanges],
    ];
    for (const [ranges, message] of bad) {
      const res = await client.post('/api/progress', { videoId: id, position: 1, watched: 0, ranges });
      expect([res.status, res.body.message], JSON.stringify(ranges)).toEqual([400, message]);
    }
    const fast = await saveRanges(client, id, [[0, 1]], { rate: 16 });
    expect([fast.status, fast.body.message]).toEqual([400, progressMessages.rateInvalid]);
    expect(await myProgress(id)).toEqual({ position: 0, watched: 0, completed: false });
  });

  it('keeps an old client working: its rate-limited total and the ranges of a newer one combine as the larger', async () => {
    const { client, videoIds } = await setUp();
    const id = videoIds[0]!;
    expect(
      (await client.post('/api/progress', { videoId: id, position: 30, watched: 30 })).body.progress,
    ).toEqual({
      position: 30,
      watched: 30,
      completed: false,
    });
    server.clock.advance(10_000);
    // The same student on a new client plays 30..40: its 10 seconds are fewer than the old total.
    expect((await saveRanges(client, id, [[30, 40]])).body.progress.watched).toBe(30);
    server.clock.advance(60_000);
    expect((await saveRanges(client, id, [[40, 70]])).body.progress.watched).toBe(40);
  });

  it('loses nothing and counts nothing twice when two tabs save overlapping ranges at once', async () => {
    const { client: tabA, student, videoIds, retention, myProgress } = await setUp([200]);
    const id = videoIds[0]!;
    const { client: tabB } = await server.studentClient(student);
    // Both tabs play the same stretch 0..60 in 2-s pieces, B half a second behind A, all at once.
    const saves = [];
    for (let t = 0; t < 60; t += 2) {
      saves.push(saveRanges(tabA, id, [[t, t + 2]]));
      saves.push(saveRanges(tabB, id, [[t + 0.5, Math.min(60, t + 2.5)]]));
    }
    const answers = await Promise.all(saves);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect((await myProgress(id)).watched).toBe(60);
    const curve = await retention(id);
    const viewers = curve.buckets.map((b: { viewers: number }) => b.viewers);
    expect(viewers.slice(0, 12)).toEqual(Array(12).fill(1));
    expect(viewers.slice(12).every((v: number) => v === 0)).toBe(true);
    // Every played second counts: A played 0..60, B 0.5..60.
    const plays = curve.buckets.reduce((sum: number, b: { plays: number }) => sum + b.plays * 5, 0);
    expect(plays).toBeCloseTo(119.5, 1);
  });
});
