import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ATTEMPTS_PER_MINUTE, checkpointMessages } from '../../contract/checkpoints';
import { courseCompletions, courses, videoKeys } from '../db/schema';
import { wrapSegmentKey } from '../videos/video-secrets';
import { testEngines } from '../../../test/support/databases';
import { OPEN_TIME, suiteAdmin, suiteServer } from '../../../test/support/test-server';
import { enrol, saveRanges, watchedCourse } from '../../../test/support/watch-fixtures';

/** The printed output a student must type; it must appear in no student response before the pass. */
const SECRET = 'checkpoint-secret-7f3a';

describe.each(testEngines())('checkpoints (%s)', (engine) => {
  const completed: { userId: string; courseId: string }[] = [];
  const server = suiteServer({
    engine,
    env: { KEY_ROTATION_SECONDS: '20' },
    app: { onCourseComplete: [async (_ctx, event) => void completed.push(event)] },
  });
  const admin = suiteAdmin(server);

  /** A student in a course of two 100 s lectures whose keys exist (periods of 20 s). */
  async function school() {
    const { client, student } = await server.studentClient();
    const course = await watchedCourse(server, [student]);
    for (const videoId of course.videoIds)
      await server.ctx.db.insert(videoKeys).values(
        [0, 1, 2, 3, 4].map((period) => ({
          videoId,
          period,
          key: wrapSegmentKey(server.ctx.signingKey, videoId, randomBytes(16)),
        })),
      );
    return { client, student, course, video: course.videoIds[0]! };
  }

  it('places, checks and edits checkpoints; bad input is a 400 with a message', async () => {
    const { video } = await school();
    const path = `/api/admin/videos/${video}/checkpoints`;
    const add = (body: object) => admin.post(path, body);
    const single = await add({
      t: 12,
      kind: 'single',
      prompt: 'What does `len([1, 2])` give?\n```py\nprint(len([1, 2]))\n```',
      choices: ['1', '2'],
      answers: [1],
    });
    expect(single.status).toBe(201);
    expect(single.body.checkpoint).toMatchObject({ t: 12, kind: 'single', answers: [1], required: true });
    expect((await add({ t: 101, kind: 'output', prompt: 'p', answers: ['x'] })).body).toEqual({
      message: checkpointMessages.timeOutside,
    });
    expect(
      (await add({ t: 5, kind: 'single', prompt: 'p', choices: ['a', 'b'], answers: [0, 1] })).body,
    ).toEqual({
      message: checkpointMessages.singleOneAnswer,
    });
    expect((await add({ t: 5, kind: 'output', prompt: 'p', choices: ['a'], answers: ['x'] })).body).toEqual({
      message: checkpointMessages.choicesUnexpected,
    });
    expect((await add({ t: 5, kind: 'essay', prompt: 'p', answers: ['x'] })).status).toBe(400);
    expect((await add({ t: 5, kind: 'output', prompt: 'p', answers: ['x'], rewindTo: 9 })).body).toEqual({
      message: checkpointMessages.rewindInvalid,
    });
    const id = single.body.checkpoint._id as string;
    const patched = await admin.request('PATCH', `/api/admin/checkpoints/${id}`, {
      json: { required: false, t: 14 },
    });
    expect(patched.body.checkpoint).toMatchObject({ t: 14, required: false });
    expect(
      (await admin.request('PATCH', `/api/admin/checkpoints/${id}`, { json: { answers: [5] } })).body,
    ).toEqual({ message: checkpointMessages.answersInvalid });
    expect((await admin.get(path)).body.checkpoints).toHaveLength(1);
    expect((await admin.request('DELETE', `/api/admin/checkpoints/${id}`)).status).toBe(200);
    expect((await admin.get(path)).body.checkpoints).toEqual([]);
  });

  it('holds keys and progress at the first required checkpoint until it is passed; completes the course', async () => {
    const { client, student, course, video } = await school();
    const created = await admin.post(`/api/admin/videos/${video}/checkpoints`, {
      t: 30,
      kind: 'output',
      prompt: 'What does this print?\n```py\nprint("a  ")\n```',
      answers: [`${SECRET}\nline two`],
      required: true,
      rewindTo: 10,
    });
    expect(created.status).toBe(201);
    const checkpointId = created.body.checkpoint._id as string;
    const seen: string[] = [];
    const watch = async (method: 'get' | 'post', path: string, body?: object) => {
      const reply = method === 'get' ? await client.get(path) : await client.post(path, body);
      seen.push(JSON.stringify(reply.body ?? ''));
      return reply;
    };

    const list = await watch('get', `/api/videos/${video}/checkpoints`);
    expect(list.body).toEqual([
      expect.objectContaining({
        _id: checkpointId,
        t: 30,
        kind: 'output',
        choices: [],
        required: true,
        passed: false,
      }),
    ]);
    expect(Object.keys(list.body[0]).sort()).toEqual([
      '_id',
      'choices',
      'kind',
      'passed',
      'prompt',
      'required',
      't',
    ]);

    // Keys: 0 (0-20 s) and 1 (20-40 s, the checkpoint's own) are served; 2 (40-60 s) starts past it.
    const key = (period: number) => client.get(`/stream/videos/${video}/keys/${period}`);
    expect((await key(0)).status).toBe(200);
    expect((await key(1)).status).toBe(200);
    const refused = await key(2);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: checkpointMessages.held });
    // Staff previewing are never held.
    expect((await admin.get(`/stream/videos/${video}/keys/3`)).status).toBe(200);

    // Progress past the checkpoint is clipped at it.
    expect((await saveRanges(client, video, [[0, 25]])).status).toBe(200);
    server.clock.advance(30_000);
    const clipped = await saveRanges(client, video, [[25, 55]]);
    expect(clipped.body.progress).toMatchObject({ position: 30, watched: 30 });

    // A wrong answer sends the student back to 0:10; the next counts only once 10-30 s is saved again.
    const wrong = await watch('post', `/api/checkpoints/${checkpointId}/attempts`, { answer: 'line one' });
    expect(wrong.body).toEqual({ correct: false, rewindTo: 10 });
    const early = await watch('post', `/api/checkpoints/${checkpointId}/attempts`, {
      answer: `${SECRET}\nline two`,
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(checkpointMessages.rewatchFirst);
    expect((await watch('post', `/api/checkpoints/${checkpointId}/attempts`, { answer: 7 })).status).toBe(
      409,
    );
    server.clock.advance(30_000);
    expect((await saveRanges(client, video, [[10, 30]])).status).toBe(200);
    expect((await key(2)).status).toBe(403);

    // No response before the pass held the answer.
    for (const body of seen) expect(body).not.toContain(SECRET);

    // Wrong shape: a 400. Right, after normalising line ends and trailing spaces: passed.
    expect((await client.post(`/api/checkpoints/${checkpointId}/attempts`, { answer: [1] })).status).toBe(
      400,
    );
    const right = await client.post(`/api/checkpoints/${checkpointId}/attempts`, {
      answer: `${SECRET}  \r\nline two\r\n`,
    });
    expect(right.body).toEqual({ correct: true });
    expect((await key(2)).status).toBe(200);
    expect((await client.get(`/api/videos/${video}/checkpoints`)).body[0].passed).toBe(true);
    expect((await client.post(`/api/checkpoints/${checkpointId}/attempts`, { answer: 'x' })).status).toBe(
      409,
    );

    // Completion: 90% of each lecture and every required checkpoint.
    const completion = () => client.get(`/api/courses/${course.courseId}/completion`);
    expect((await completion()).body).toMatchObject({
      complete: false,
      lectures: [
        { videoId: video, checkpointsPassed: 1, checkpointsRequired: 1, complete: false },
        { complete: false, checkpointsRequired: 0 },
      ],
    });
    const watchAll = async (videoId: string, from: number) => {
      for (let t = from; t < 100; t += 30) {
        server.clock.advance(20_000);
        expect((await saveRanges(client, videoId, [[t, Math.min(100, t + 30)]])).status).toBe(200);
      }
    };
    await watchAll(video, 30);
    expect((await completion()).body.lectures[0]).toMatchObject({ watched: 1, complete: true });
    expect(completed).toEqual([]);
    await watchAll(course.videoIds[1]!, 0);
    expect((await completion()).body.complete).toBe(true);
    expect(completed).toEqual([{ userId: student.id, courseId: course.courseId }]);
    // What staff see of it: reached, answered, passed, right first time, attempts, the answers given.
    const [stats] = (await admin.get(`/api/admin/videos/${video}/checkpoints`)).body.checkpoints;
    expect(stats.stats).toMatchObject({
      reached: 1,
      answered: 1,
      passed: 1,
      firstTryCorrect: 0,
      attempts: 2,
    });
    expect(stats.stats.distribution).toHaveLength(2);
    expect(stats.stats.distribution).toContainEqual({ answer: '"line one"', count: 1, correct: false });
    const rows = await server.ctx.db
      .select()
      .from(courseCompletions)
      .where(eq(courseCompletions.studentId, student.id));
    expect(rows).toHaveLength(1);
  });

  it('a rewatch saved by two saves at once counts both parts', async () => {
    // A player saves every 10 s while playing and on the pause at the checkpoint: on a busy server
    // the two are in flight together, and each part of the rewatch must count.
    const { client, video } = await school();
    const created = await admin.post(`/api/admin/videos/${video}/checkpoints`, {
      t: 30,
      kind: 'single',
      prompt: 'Which one?',
      choices: ['a', 'b'],
      answers: [1],
      required: true,
      rewindTo: 10,
    });
    const checkpointId = created.body.checkpoint._id as string;
    expect((await saveRanges(client, video, [[0, 25]])).status).toBe(200);
    server.clock.advance(30_000);
    expect((await saveRanges(client, video, [[25, 30]])).status).toBe(200);
    const answer = (choice: number) =>
      client.post(`/api/checkpoints/${checkpointId}/attempts`, { answer: choice });
    expect((await answer(0)).body).toEqual({ correct: false, rewindTo: 10 });
    server.clock.advance(30_000);
    const saves = await Promise.all([
      saveRanges(client, video, [[10, 20]]),
      saveRanges(client, video, [[20, 30]]),
    ]);
    expect(saves.map((r) => r.status)).toEqual([200, 200]);
    expect((await answer(1)).body).toEqual({ correct: true });
  });

  it('limits attempts to 10 a minute, and answers 4xx for unknown ids and courses', async () => {
    const { client, student, video } = await school();
    const created = await admin.post(`/api/admin/videos/${video}/checkpoints`, {
      t: 5,
      kind: 'multiple',
      prompt: 'Pick the even numbers',
      choices: ['1', '2', '4'],
      answers: [1, 2],
      required: false,
    });
    const path = `/api/checkpoints/${created.body.checkpoint._id}/attempts`;
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS_PER_MINUTE + 2 }, () => client.post(path, { answer: [0] })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(ATTEMPTS_PER_MINUTE);
    expect(answers.filter((a) => a.status === 429)[0]?.body).toMatchObject({
      message: checkpointMessages.tooManyAttempts,
    });
    expect((await client.post('/api/checkpoints/nope/attempts', { answer: 1 })).status).toBe(404);
    expect((await client.get('/api/courses/nope/completion')).status).toBe(404);
    // A course without lectures (for this student): a 409 saying so.
    const [empty] = await server.ctx.db
      .insert(courses)
      .values({
        batch: 1,
        courseCode: 'EMPTY39',
        name: 'Empty',
        description: 'd',
        startDate: '2026-03-01',
        endDate: '2026-06-30',
      })
      .returning();
    await enrol(server, empty!.id, student, new Date(Date.parse(OPEN_TIME) + 86_400_000), []);
    const none = await client.get(`/api/courses/${empty!.id}/completion`);
    expect(none.status).toBe(409);
    expect(none.body).toEqual({ message: checkpointMessages.noLectures });
  });
});
