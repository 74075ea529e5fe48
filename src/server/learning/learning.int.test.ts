import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { learningMessages, QUESTIONS_PER_HOUR, TEXT_MAX_CHARS } from '../../contract/learning';
import { auditEvents, enrollments, jobs, notes, questions, users, videos } from '../db/schema';
import type { JobRunContext } from '../jobs/types';
import { learningJobHandlers } from './jobs';
import { testEngines } from '../../../test/support/databases';
import { makeClip, suiteMedia } from '../../../test/support/media-kit';
import { createMediaTools } from '../storage/ffmpeg';
import { mediaKeys } from '../storage';
import { takeFrame } from './frames';
import { outboxMails } from '../../../test/support/outbox';
import { sendDigest, staffOfCourse } from './digest';
import { suiteAdmin, suiteServer } from '../../../test/support/test-server';
import { download, enrol, watchedCourse } from '../../../test/support/watch-fixtures';

describe.each(testEngines())('notes and questions (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  /** Runs the queued jobs of `type` with the domain's handler, as a worker would; answers how many. */
  async function runQueued(type: keyof ReturnType<typeof learningJobHandlers>): Promise<number> {
    const queued = await server.ctx.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, type), eq(jobs.status, 'queued')));
    const handler = learningJobHandlers(server.ctx)[type] as (
      payload: unknown,
      run: JobRunContext,
    ) => Promise<void>;
    for (const job of queued) {
      const run = { jobId: job.id, attempt: 1, signal: new AbortController().signal, log: server.ctx.logger };
      await handler(job.payload, run);
      await server.ctx.db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, job.id));
    }
    return queued.length;
  }

  /** Two students of one course of two 100 s lectures, and a student of another course. */
  async function school() {
    const a = await server.studentClient();
    const b = await server.studentClient();
    const other = await server.studentClient();
    const course = await watchedCourse(server, [a.student, b.student]);
    const otherCourse = await watchedCourse(server, [other.student]);
    return {
      otherCourse,
      a: a.client,
      b: b.client,
      other: other.client,
      aStudent: a.student,
      bStudent: b.student,
      course,
      video: course.videoIds[0]!,
    };
  }

  it('keeps notes private to their student: add, list by time, edit, delete, export', async () => {
    const { a, b, other, course, video } = await school();
    const add = (t: number, text: string) => a.post(`/api/videos/${video}/notes`, { t, text });
    const late = await add(65, 'Recursion: the base case `n == 0`');
    expect(late.status).toBe(201);
    expect(late.body.note).toMatchObject({ t: 65, videoId: video });
    expect((await add(5, 'Intro')).status).toBe(201);
    const list = await a.get(`/api/videos/${video}/notes`);
    expect(list.body.notes.map((n: { t: number }) => n.t)).toEqual([5, 65]);

    // Other students see none of them, cannot touch them; the admin API has no route to them.
    expect((await b.get(`/api/videos/${video}/notes`)).body.notes).toEqual([]);
    const id = late.body.note._id as string;
    expect((await b.request('PATCH', `/api/notes/${id}`, { json: { text: 'mine now' } })).status).toBe(404);
    expect((await b.request('DELETE', `/api/notes/${id}`)).status).toBe(404);
    expect((await other.get(`/api/videos/${video}/notes`)).status).toBe(403);
    expect((await admin.get(`/api/videos/${video}/notes`)).status).toBe(403);
    expect((await admin.get(`/api/courses/${course.courseId}/notes`)).status).toBe(403);

    // Bad input: outside the video, too long, empty.
    expect((await add(100.5, 'after the end')).body).toEqual({ message: learningMessages.timeOutside });
    expect((await add(-1, 'before')).status).toBe(400);
    expect((await add(3, 'x'.repeat(TEXT_MAX_CHARS + 1))).body).toEqual({
      message: learningMessages.noteText,
    });
    expect((await add(3, '   ')).status).toBe(400);

    const edited = await a.request('PATCH', `/api/notes/${id}`, { json: { text: 'Base case first', t: 70 } });
    expect(edited.status).toBe(200);
    expect(edited.body.note).toMatchObject({ text: 'Base case first', t: 70 });
    expect((await a.request('PATCH', `/api/notes/${id}`, { json: { t: 1000 } })).status).toBe(400);

    await a.post(`/api/videos/${course.videoIds[1]}/notes`, { t: 12, text: 'Second lecture\nline two' });
    const all = await a.get(`/api/courses/${course.courseId}/notes`);
    expect(all.status).toBe(200);
    expect(
      all.body.videos.map((v: { title: string; notes: unknown[] }) => [v.title, v.notes.length]),
    ).toEqual([
      ['Lecture 1', 2],
      ['Lecture 2', 1],
    ]);
    const md = await a.get(`/api/courses/${course.courseId}/notes?format=md`);
    expect(md.headers.get('content-type')).toContain('text/markdown');
    expect(md.body).toContain('## Lecture 1');
    expect(md.body).toContain('- **1:10** Base case first');
    expect(md.body).toContain('- **0:12** Second lecture\n  line two');
    expect((await b.get(`/api/courses/${course.courseId}/notes`)).body.videos).toEqual([]);
    expect((await other.get(`/api/courses/${course.courseId}/notes`)).status).toBe(404);

    expect((await a.request('DELETE', `/api/notes/${id}`)).status).toBe(200);
    expect((await a.get(`/api/videos/${video}/notes`)).body.notes).toHaveLength(1);
  });

  it("exports notes with a lecture's title as literal Markdown: its HTML and link come out as characters", async () => {
    const { a, course, video } = await school();
    await server.ctx.db
      .update(videos)
      .set({ title: '<img src=x onerror=alert(1)> [x](javascript:alert(1))' })
      .where(eq(videos.id, video));
    await a.post(`/api/videos/${video}/notes`, { t: 5, text: 'see <b>this</b>' });
    const md = await a.get(`/api/courses/${course.courseId}/notes?format=md`);
    expect(md.body).toContain('## \\<img src=x onerror=alert(1)\\> \\[x\\](javascript:alert(1))\n');
    expect(md.body).toContain('- **0:05** see \\<b\\>this\\</b\\>\n');
  });

  it('a student who loses the course loses its notes and questions', async () => {
    const { a, aStudent, course, video } = await school();
    const note = await a.post(`/api/videos/${video}/notes`, { t: 1, text: 'kept' });
    const asked = await a.post(`/api/videos/${video}/questions`, { t: 1, title: 'Why?', text: '' });
    await server.ctx.db
      .update(enrollments)
      .set({ accessRevoked: true })
      .where(eq(enrollments.studentId, aStudent.id));
    expect((await a.get(`/api/videos/${video}/notes`)).status).toBe(403);
    expect((await a.get(`/api/videos/${video}/questions`)).status).toBe(403);
    expect((await a.request('DELETE', `/api/notes/${note.body.note._id}`)).status).toBe(403);
    expect((await a.post(`/api/questions/${asked.body.question._id}/me-too`)).status).toBe(403);
    expect((await a.get(`/api/courses/${course.courseId}/notes`)).status).toBe(403);
  });

  it('no unread count or answer mail for a question whose asker lost the video or its course', async () => {
    const { a, b, aStudent, bStudent, course, video } = await school();
    const ask = async (client: typeof a, title: string) =>
      (await client.post(`/api/videos/${video}/questions`, { t: 4, title, text: '' })).body.question
        ._id as string;
    const answer = (id: string) => admin.post(`/api/questions/${id}/answers`, { text: 'Here is why.' });
    const mailsTo = (email: string) => server.smtp.mails.filter((m) => m.to.includes(email)).length;
    const aQuestion = await ask(a, 'Asked before losing the video');
    const bQuestion = await ask(b, 'Asked before losing the course');
    server.clock.advance(1_000);

    // a loses the video (its grant revoked), b the course: staff answer both, then a classmate's.
    await admin.post('/api/admin/video/revoke', { videoId: video, studentIds: [aStudent.id] });
    await admin.post('/api/admin/course/revokeaccess', {
      courseId: course.courseId,
      studentId: bStudent.id,
      accessrevokedreason: 'Left the bootcamp',
    });
    const before = { a: mailsTo(aStudent.email), b: mailsTo(bStudent.email) };
    expect((await answer(aQuestion)).status).toBe(201);
    expect((await answer(bQuestion)).status).toBe(201);
    const c = await server.studentClient();
    await enrol(server, course.courseId, c.student, new Date(server.clock.now().getTime() + 86_400_000), [
      video,
    ]);
    const cBefore = server.smtp.mails.length;
    const cQuestion = await ask(c.client, 'Still here');
    server.clock.advance(1_000); // answered after it was asked: unread
    expect((await answer(cQuestion)).status).toBe(201);
    await server.smtp.waitFor(c.student.email, cBefore);
    await new Promise((r) => setTimeout(r, 300)); // a mail handed over before c's has arrived by now

    expect({ a: mailsTo(aStudent.email), b: mailsTo(bStudent.email) }).toEqual(before);
    expect((await a.get('/api/questions/unread')).body).toEqual({ unread: 0 });
    expect((await b.get('/api/questions/unread')).body).toEqual({ unread: 0 });
    expect((await c.client.get('/api/questions/unread')).body).toEqual({ unread: 1 });
  });

  it('questions: classmates see them unnamed, add me too; staff answer, the asker is mailed, accepts', async () => {
    const { a, b, other, aStudent, video } = await school();
    const asked = await a.post(`/api/videos/${video}/questions`, {
      t: 65,
      title: 'Why does the loop stop?',
      text: 'At 1:05:\n```\nwhile (i < n) {}\n```',
    });
    expect(asked.status).toBe(201);
    const id = asked.body.question._id as string;
    expect(asked.body.question).toMatchObject({ mine: true, meToo: 0, status: 'open', answers: [] });

    const seen = await b.get(`/api/videos/${video}/questions`);
    expect(seen.body.questions).toHaveLength(1);
    expect(seen.body.questions[0]).toMatchObject({ _id: id, mine: false, t: 65 });
    expect(JSON.stringify(seen.body)).not.toContain(aStudent.username);
    expect((await other.get(`/api/videos/${video}/questions`)).status).toBe(403);
    expect((await other.post(`/api/questions/${id}/me-too`)).status).toBe(403);

    expect((await b.post(`/api/questions/${id}/me-too`)).body.meToo).toBe(1);
    expect((await b.post(`/api/questions/${id}/me-too`)).body.meToo).toBe(1);
    expect((await b.post(`/api/questions/${id}/answers`, { text: 'me?' })).status).toBe(403);

    server.clock.advance(1000);
    const mailsBefore = server.smtp.mails.length;
    const answered = await admin.post(`/api/questions/${id}/answers`, { text: 'Because `i` reaches `n`.' });
    expect(answered.status).toBe(201);
    const answerId = answered.body.question.answers[0]._id as string;
    expect(answered.body.question.answers[0]).toMatchObject({ byStaff: true, accepted: false });
    const mail = await server.smtp.waitFor(aStudent.email, mailsBefore);
    expect(mail.subject).toContain('your question was answered');
    expect(mail.text).toContain('Why does the loop stop?');
    expect(mail.text).toContain('1:05');

    expect((await a.get('/api/questions/unread')).body).toEqual({ unread: 1 });
    const mine = (await a.get(`/api/videos/${video}/questions`)).body.questions[0];
    expect(mine).toMatchObject({ unread: 1, meToo: 1 });
    expect((await b.post(`/api/questions/${id}/seen`)).status).toBe(404);
    server.clock.advance(1000);
    expect((await a.post(`/api/questions/${id}/seen`)).status).toBe(200);
    expect((await a.get('/api/questions/unread')).body).toEqual({ unread: 0 });

    expect((await b.post(`/api/questions/${id}/accept`, { answerId })).status).toBe(403);
    const accepted = await a.post(`/api/questions/${id}/accept`, { answerId });
    expect(accepted.status).toBe(200);
    expect(accepted.body.question.answers[0].accepted).toBe(true);

    const metrics = await server.ctx.metrics.registry.metrics();
    expect(metrics).toMatch(/lectern_questions_total \d+/);
    expect(metrics).toMatch(/lectern_question_answers_total [1-9]/);
  });

  it('an instructor of the course answers from their queue and gets its digest; an instructor of another course gets 403', async () => {
    const { a, aStudent, course, otherCourse, video } = await school();
    const { client: tutor, instructor } = await server.instructorClient([course.courseId]);
    const { client: stranger, instructor: strangerRow } = await server.instructorClient([
      otherCourse.courseId,
    ]);
    const asked = await a.post(`/api/videos/${video}/questions`, {
      t: 5,
      title: 'Instructor, why?',
      text: '',
    });
    const id = asked.body.question._id as string;

    // The queue: their courses' questions only.
    const queued = (client: typeof tutor) =>
      client
        .get('/api/admin/questions?status=all')
        .then((r) => r.body.questions.map((q: { _id: string }) => q._id));
    expect(await queued(tutor)).toContain(id);
    expect(await queued(stranger)).not.toContain(id);

    // Another course's instructor: refused on every route of the question and its lecture.
    expect((await stranger.post(`/api/questions/${id}/answers`, { text: 'Not mine.' })).status).toBe(403);
    expect((await stranger.post(`/api/admin/questions/${id}/status`, { status: 'closed' })).status).toBe(403);
    expect((await stranger.get(`/api/admin/videos/${video}/learning`)).status).toBe(403);
    expect((await stranger.get(`/api/videos/${video}/questions`)).status).toBe(403);
    expect((await stranger.post(`/api/questions/${id}/accept`, { answerId: id })).status).toBe(403);

    // Their own course's instructor reads the lecture's questions and answers as staff.
    expect(
      (await tutor.get(`/api/videos/${video}/questions`)).body.questions.map((q: { _id: string }) => q._id),
    ).toContain(id);
    const mailsBefore = server.smtp.mails.length;
    const answered = await tutor.post(`/api/questions/${id}/answers`, { text: 'Because.' });
    expect(answered.status).toBe(201);
    expect(answered.body.question.answers[0]).toMatchObject({ byStaff: true });
    await server.smtp.waitFor(aStudent.email, mailsBefore);
    expect((await tutor.post(`/api/admin/questions/${id}/status`, { status: 'closed' })).status).toBe(200);

    // The hourly digest: the course's instructor is its staff (with the admins); the other is not.
    await a.post(`/api/videos/${video}/questions`, { t: 7, title: 'Digest for the tutor', text: '' });
    const before = server.smtp.mails.length;
    await sendDigest(server.ctx);
    const digest = await server.smtp.waitFor(instructor.email, before);
    expect(digest.subject).toMatch(/new question/);
    expect(digest.text).toContain('Digest for the tutor');
    expect(server.smtp.mails.slice(before).filter((m) => m.to.includes(strangerRow.email))).toEqual([]);
    expect((await staffOfCourse(server.ctx.db, course.courseId)).map((s) => s.id)).toContain(instructor.id);
    expect((await staffOfCourse(server.ctx.db, course.courseId)).map((s) => s.id)).not.toContain(
      strangerRow.id,
    );
  });

  it('a digest mail the SMTP server refuses is owed to that staff member alone: sent once it is taken, not again to the others', async () => {
    const { a, course, video } = await school();
    const { instructor } = await server.instructorClient([course.courseId]);
    await sendDigest(server.ctx); // the questions of earlier tests out of the way
    await a.post(`/api/videos/${video}/questions`, { t: 9, title: 'Refused for the tutor', text: '' });
    const digestsTo = (email: string) =>
      server.smtp.mails.filter((m) => m.to.includes(email) && m.text.includes('Refused for the tutor'));

    server.smtp.refusedRecipients.add(instructor.email);
    try {
      expect(await sendDigest(server.ctx)).toBe(1);
    } finally {
      server.smtp.refusedRecipients.delete(instructor.email);
    }
    const [staff] = await server.ctx.db.select().from(users).where(eq(users.id, admin.id));
    expect(digestsTo(staff!.email)).toHaveLength(1);
    expect(digestsTo(instructor.email)).toEqual([]);

    // The next hourly digest names nothing new; the refused one goes out on its own, to the tutor only.
    expect(await sendDigest(server.ctx)).toBe(0);
    expect(await runQueued('learning.digest-resend')).toBe(1);
    expect(digestsTo(instructor.email)).toHaveLength(1);
    expect(digestsTo(staff!.email)).toHaveLength(1);
    expect(await runQueued('learning.digest-resend')).toBe(0);
  });

  it('the staff queue: open questions, unanswered and most me-too first; close and hide', async () => {
    const { a, b, video } = await school();
    const ask = async (title: string) =>
      (await a.post(`/api/videos/${video}/questions`, { t: 2, title, text: '' })).body.question._id as string;
    const q1 = await ask('Queue first (oldest)');
    server.clock.advance(1000);
    const q2 = await ask('Queue popular');
    server.clock.advance(1000);
    const q3 = await ask('Queue answered');
    await b.post(`/api/questions/${q2}/me-too`);
    await admin.post(`/api/questions/${q3}/answers`, { text: 'Done.' });
    const titles = async () =>
      ((await admin.get('/api/admin/questions')).body.questions as { _id: string; title: string }[])
        .filter((q) => [q1, q2, q3].includes(q._id))
        .map((q) => q.title);
    expect(await titles()).toEqual(['Queue popular', 'Queue first (oldest)', 'Queue answered']);
    const queued = (await admin.get('/api/admin/questions')).body.questions.find(
      (q: { _id: string }) => q._id === q2,
    );
    expect(queued).toMatchObject({ videoId: video, meToo: 1, videoTitle: 'Lecture 1' });
    expect((await a.get('/api/admin/questions')).status).toBe(403);

    const closed = await admin.post(`/api/admin/questions/${q1}/status`, { status: 'closed' });
    expect(closed.body.question.status).toBe('closed');
    expect((await b.post(`/api/questions/${q1}/me-too`)).body).toEqual({ message: learningMessages.closed });
    expect(await titles()).toEqual(['Queue popular', 'Queue answered']);

    await admin.post(`/api/admin/questions/${q2}/status`, { status: 'hidden' });
    const classmate = (await b.get(`/api/videos/${video}/questions`)).body.questions.map(
      (q: { _id: string }) => q._id,
    );
    expect(classmate).not.toContain(q2);
    expect((await b.post(`/api/questions/${q2}/me-too`)).status).toBe(404);
    const asker = (await a.get(`/api/videos/${video}/questions`)).body.questions.map(
      (q: { _id: string }) => q._id,
    );
    expect(asker).toContain(q2);
  });

  it('limits questions to 20 an hour per student, counted before the work (a burst gets no more)', async () => {
    const { a, b, video } = await school();
    const burst = await Promise.all(
      Array.from({ length: QUESTIONS_PER_HOUR + 5 }, (_, i) =>
        a.post(`/api/videos/${video}/questions`, { t: 1, title: `Burst ${i}`, text: '' }),
      ),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(QUESTIONS_PER_HOUR);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body).toMatchObject({ message: learningMessages.tooManyQuestions });
    expect(
      (await b.post(`/api/videos/${video}/questions`, { t: 1, title: 'Another student', text: '' })).status,
    ).toBe(201);
    server.clock.advance(3_600_000);
    expect(
      (await a.post(`/api/videos/${video}/questions`, { t: 1, title: 'Next hour', text: '' })).status,
    ).toBe(201);
  });

  it('the video analytics count questions per 10 s beside the retention buckets (hidden ones left out)', async () => {
    const { a, b, video, course } = await school();
    const ask = (client: typeof a, t: number) =>
      client.post(`/api/videos/${video}/questions`, { t, title: `At ${t}`, text: '' });
    for (const t of [3, 9.9]) await ask(a, t);
    await ask(b, 12);
    await ask(b, 99.5);
    await ask(a, 100); // the very end counts in the last bucket
    const hidden = (await ask(b, 15)).body.question._id as string;
    await admin.post(`/api/admin/questions/${hidden}/status`, { status: 'hidden' });
    await a.post(`/api/videos/${course.videoIds[1]}/questions`, { t: 5, title: 'Other lecture', text: '' });

    const res = await admin.get(`/api/admin/analytics/videos/${video}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bucketSeconds: 5, questionBucketSeconds: 10 });
    expect(res.body.buckets).toHaveLength(20);
    const counts = res.body.questionBuckets as { start: number; questions: number }[];
    expect(counts.map((q) => q.start)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(counts.map((q) => q.questions)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
    expect((await a.get(`/api/admin/analytics/videos/${video}`)).status).toBe(403);
  });

  it('deleting a video deletes its notes and questions, says how many first, and audits it', async () => {
    const { a, b, video } = await school();
    await a.post(`/api/videos/${video}/notes`, { t: 1, text: 'one' });
    await b.post(`/api/videos/${video}/notes`, { t: 2, text: 'two' });
    await a.post(`/api/videos/${video}/questions`, { t: 1, title: 'Doomed', text: '' });
    expect((await admin.get(`/api/admin/videos/${video}/learning`)).body).toEqual({ notes: 2, questions: 1 });
    expect((await a.get(`/api/admin/videos/${video}/learning`)).status).toBe(403);
    expect((await admin.post('/api/admin/delete/video', { videoId: video })).status).toBe(200);
    const db = server.ctx.db;
    expect(await db.select().from(notes).where(eq(notes.videoId, video))).toEqual([]);
    expect(await db.select().from(questions).where(eq(questions.videoId, video))).toEqual([]);
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.action, 'video.deleted'));
    expect(audit.find((e) => e.details?.videoId === video)?.details).toMatchObject({
      notes: 2,
      questions: 1,
    });
  });
});

/** A JPEG's width and height, from its first start-of-frame marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  for (let i = 2; i + 9 < bytes.length;) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  return undefined;
}

describe.each(testEngines())("a question's frame of its moment (%s)", (engine) => {
  const { media, admin } = suiteMedia({ engine });

  it("is taken on the server from the top rendition, 320 px wide, read with the video's access, deleted with it", async () => {
    const { videoId, body } = await media.uploadReady(
      admin,
      { seconds: 4, width: 640, height: 360 },
      'frame.mp4',
    );
    // The ladder is done and the source gone: the frame comes from the packaged rendition.
    await media.runner.idle();
    expect(await media.objects(`sources/${videoId}`)).toEqual([]);
    const server = media.server;
    const asker = await server.studentClient();
    const classmate = await server.studentClient();
    const stranger = await server.studentClient();
    const courseId = await media.giveAccess(asker.student.id, videoId);
    await media.giveAccess(classmate.student.id, videoId, { courseId });

    const asked = await asker.client.post(`/api/videos/${videoId}/questions`, {
      t: 2.5,
      title: 'This slide?',
      text: '',
    });
    expect(asked.status).toBe(201);
    const id = asked.body.question._id as string;
    expect(asked.body.question.frameUrl).toBeNull();
    await media.runner.idle();
    const [row] = await server.ctx.db.select().from(questions).where(eq(questions.id, id));
    expect(row?.frameAt).toBeInstanceOf(Date);

    const listed = (await classmate.client.get(`/api/videos/${videoId}/questions`)).body.questions[0];
    expect(listed.frameUrl).toBe(`/api/questions/${id}/frame.jpg`);
    const frame = await download(classmate.client, listed.frameUrl);
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toBe('image/jpeg');
    expect(frame.headers.get('cache-control')).toContain('private');
    expect(jpegSize(frame.bytes)).toEqual({ width: 320, height: 180 });
    expect((await admin.request('GET', listed.frameUrl)).status).toBe(200);
    expect((await stranger.client.request('GET', listed.frameUrl)).status).toBe(403);
    expect((await server.client().request('GET', listed.frameUrl)).status).toBe(401);
    expect((await classmate.client.request('GET', `/api/questions/not-a-uuid/frame.jpg`)).status).toBe(404);
    await media.revokeCourse(classmate.student.id, courseId);
    expect((await classmate.client.request('GET', listed.frameUrl)).status).toBe(403);

    // While the source is kept (before the ladder is done), the frame comes from it.
    const source = await makeClip({ seconds: 2, width: 640, height: 360 });
    await media.store.put(mediaKeys.source(videoId), { file: source });
    const tools = createMediaTools(server.ctx.config);
    const fromSource = await takeFrame(
      server.ctx,
      tools,
      media.store,
      { id: videoId, renditions: [] },
      1,
      AbortSignal.timeout(30_000),
    );
    expect(jpegSize(fromSource!)).toEqual({ width: 320, height: 180 });

    // Deleting the video's media deletes the frames with its folder.
    expect(await media.objects(`videos/${videoId}/frames/`)).toEqual([`videos/${videoId}/frames/${id}.jpg`]);
    expect((await admin.request('DELETE', body.deleteUrl)).status).toBe(200);
    expect(await media.objects(`videos/${videoId}/frames/`)).toEqual([]);
  });
});

describe.each(testEngines())("the staff's hourly digest of new questions (%s)", (engine) => {
  // No SMTP_URL: mail goes to the outbox, as on a school without a mail server.
  const server = suiteServer({ engine, env: { SMTP_URL: '' } });
  const admin = suiteAdmin(server);

  it('mails each staff member once an hour, only when there are new questions, never twice for one', async () => {
    const a = await server.studentClient();
    const course = await watchedCourse(server, [a.student]);
    const video = course.videoIds[1]!;
    const [staff] = await server.ctx.db.select().from(users).where(eq(users.id, admin.id));
    const digests = async () =>
      (await outboxMails(server.dataDir)).filter(
        (m) => m.to.includes(staff!.email) && /new question/.test(m.subject),
      );

    // Nothing asked: no mail.
    expect(await sendDigest(server.ctx)).toBe(0);
    expect(await digests()).toEqual([]);

    const ask = (t: number, title: string) =>
      a.client.post(`/api/videos/${video}/questions`, { t, title, text: '' });
    await ask(65, 'Why the base case?');
    await ask(12, 'What is n?');
    const hidden = (await ask(3, 'Spam')).body.question._id as string;
    await admin.post(`/api/admin/questions/${hidden}/status`, { status: 'hidden' });

    expect(await sendDigest(server.ctx)).toBe(2);
    let mails = await digests();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Lectern: 2 new questions');
    expect(mails[0]!.text).toContain(course.name);
    expect(mails[0]!.text).toContain('"What is n?" at 0:12 of "Lecture 2"');
    expect(mails[0]!.text).toContain('"Why the base case?" at 1:05 of "Lecture 2"');
    expect(mails[0]!.text.indexOf('What is n?')).toBeLessThan(mails[0]!.text.indexOf('Why the base case?'));
    expect(mails[0]!.text).not.toContain('Spam');
    expect(mails[0]!.text).toContain('/adminquestions');

    // The next hour with nothing new: no mail; the questions already named are not named again.
    server.clock.advance(3_600_000);
    expect(await sendDigest(server.ctx)).toBe(0);
    expect(await digests()).toHaveLength(1);

    await ask(30, 'One more');
    // Two runs at once (two workers): the question is named in one mail only.
    const named = await Promise.all([sendDigest(server.ctx), sendDigest(server.ctx)]);
    expect(named.sort()).toEqual([0, 1]);
    mails = await digests();
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('Lectern: 1 new question');
    expect(mails[1]!.text).toContain('"One more" at 0:30');
    expect(mails[1]!.text).not.toContain('What is n?');
    const rows = await server.ctx.db.select().from(questions).where(eq(questions.videoId, video));
    expect(rows.every((q) => q.digestedAt)).toBe(true);
  });

  it('is a recurring job of the registry, hourly', async () => {
    const { recurringJobs, jobHandlers } = await import('../wiring/job-registry');
    expect(recurringJobs).toContainEqual(['learning.digest', 3_600_000]);
    expect(typeof jobHandlers(server.ctx)['learning.digest']).toBe('function');
  });
});
