import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { questions } from '../../src/server/db/schema';
import { adminOnly, ofTheirCourse, type MatrixState, type Row } from './matrix-kit';
import type { Role, World } from './world';

/**
 * Notes and questions (issue 30): the student of course A notes and asks on lecture A1. Notes are
 * theirs alone: other students get 403 for the video or 404 for the note, and no admin route
 * answers them (the admin's routes are checked for the note's text). Questions follow the video's
 * access: its viewers read them, staff answer them.
 */
const NOTE_TEXT = 'Matrix private note 7c1e';

const refused = (answers: Partial<Record<Role, number>>) => ({
  anonymous: 401,
  student: 403,
  firstLogin: 403,
  otherCourse: 403,
  revoked: 403,
  admin: 403,
  instructorOfThisCourse: 403,
  instructorOfAnotherCourse: 403,
  ...answers,
});

const learning = (state: MatrixState) => (state.learning ??= {});

/** Waits until the server took the question's frame (a job: learning/frames.ts). */
async function frameTaken(world: World, questionId: string | undefined) {
  const deadline = Date.now() + 30_000;
  while (questionId) {
    const [row] = await world.media.server.ctx.db
      .select({ frameAt: questions.frameAt })
      .from(questions)
      .where(eq(questions.id, questionId));
    if (row?.frameAt || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const noNotes = (reply: { text: string }) => expect(reply.text).not.toContain(NOTE_TEXT);

export const learningRows: Row[] = [
  {
    route: 'POST /api/videos/:videoId/notes',
    cases: [
      {
        request: (world) => ({
          method: 'POST',
          path: `/api/videos/${world.a1.id}/notes`,
          json: { t: 1, text: NOTE_TEXT },
        }),
        expect: refused({ student: 201 }),
        check: (reply, role, _world, state) => {
          if (role === 'student') learning(state).noteId = reply.json.note._id;
        },
      },
    ],
  },
  {
    route: 'GET /api/videos/:videoId/notes',
    cases: [
      {
        request: (world) => ({ method: 'GET', path: `/api/videos/${world.a1.id}/notes` }),
        expect: refused({ student: 200 }),
        check: (reply, role) => {
          if (role === 'student') expect(reply.text).toContain(NOTE_TEXT);
          else noNotes(reply);
        },
      },
    ],
  },
  {
    route: 'GET /api/courses/:courseId/notes',
    cases: [
      {
        request: (world) => ({ method: 'GET', path: `/api/courses/${world.courseA}/notes` }),
        // Not enrolled in course A: 404, as an unknown course.
        expect: refused({ student: 200, otherCourse: 404 }),
        check: (reply, role) => {
          if (role === 'student') expect(reply.text).toContain(NOTE_TEXT);
          else noNotes(reply);
        },
      },
      {
        name: 'Markdown export',
        request: (world) => ({ method: 'GET', path: `/api/courses/${world.courseA}/notes?format=md` }),
        expect: refused({ student: 200, otherCourse: 404 }),
        check: (reply, role) => {
          if (role === 'student') expect(reply.text).toContain(NOTE_TEXT);
          else noNotes(reply);
        },
      },
    ],
  },
  {
    route: 'PATCH /api/notes/:noteId',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'PATCH',
          path: `/api/notes/${state.learning?.noteId}`,
          json: { text: NOTE_TEXT },
        }),
        // Another student's note is as unknown as a missing one.
        expect: refused({ student: 200, otherCourse: 404, revoked: 404 }),
        check: (reply, role) => {
          if (role !== 'student') noNotes(reply);
        },
      },
    ],
  },
  {
    route: 'POST /api/videos/:videoId/questions',
    cases: [
      {
        request: (world) => ({
          method: 'POST',
          path: `/api/videos/${world.a1.id}/questions`,
          json: { t: 1, title: 'Matrix question', text: 'Why?' },
        }),
        expect: refused({ student: 201 }),
        check: (reply, role, _world, state) => {
          if (role === 'student') learning(state).questionId = reply.json.question._id;
        },
      },
    ],
  },
  {
    route: 'GET /api/videos/:videoId/questions',
    cases: [
      {
        request: (world) => ({ method: 'GET', path: `/api/videos/${world.a1.id}/questions` }),
        // Instructors read the questions of their courses' lectures, no other.
        expect: refused({ student: 200, admin: 200, instructorOfThisCourse: 200 }),
        check: (reply) => {
          noNotes(reply);
          if (reply.status === 200) expect(reply.text).toContain('Matrix question');
        },
      },
      {
        name: "another course's lecture",
        request: (world) => ({ method: 'GET', path: `/api/videos/${world.b1.id}/questions` }),
        expect: refused({ otherCourse: 200, admin: 200, instructorOfAnotherCourse: 200 }),
        check: (reply) => expect(reply.text).not.toContain('Matrix question'),
      },
    ],
  },
  {
    route: 'GET /api/questions/:questionId/frame.jpg',
    cases: [
      {
        // The video's own access, like its poster: the asker's classmates and staff, no one else.
        request: async (world, _role, state) => {
          await frameTaken(world, state.learning?.questionId);
          return { method: 'GET', path: `/api/questions/${state.learning?.questionId}/frame.jpg` };
        },
        expect: refused({ student: 200, admin: 200, instructorOfThisCourse: 200 }),
        check: (reply) => {
          if (reply.status === 200) expect(reply.headers.get('content-type')).toBe('image/jpeg');
          else expect(reply.headers.get('content-type')).not.toContain('image');
        },
      },
    ],
  },
  {
    route: 'POST /api/questions/:questionId/me-too',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'POST',
          path: `/api/questions/${state.learning?.questionId}/me-too`,
        }),
        expect: refused({ student: 200 }),
      },
    ],
  },
  {
    route: 'POST /api/questions/:questionId/answers',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'POST',
          path: `/api/questions/${state.learning?.questionId}/answers`,
          json: { text: 'Matrix answer' },
        }),
        expect: ofTheirCourse(201),
        check: (reply, role, _world, state) => {
          if (role === 'admin') learning(state).answerId = reply.json.question.answers[0]._id;
        },
      },
    ],
  },
  {
    route: 'POST /api/questions/:questionId/accept',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'POST',
          path: `/api/questions/${state.learning?.questionId}/accept`,
          json: { answerId: state.learning?.answerId ?? 'none' },
        }),
        // The asker or staff (the answer is the admin's, from the row before); classmates of other
        // courses and the revoked student cannot reach the question's video.
        expect: refused({ student: 200, admin: 200, instructorOfThisCourse: 200 }),
      },
    ],
  },
  {
    route: 'POST /api/questions/:questionId/seen',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'POST',
          path: `/api/questions/${state.learning?.questionId}/seen`,
        }),
        expect: refused({ student: 200 }),
      },
    ],
  },
  {
    route: 'GET /api/questions/unread',
    cases: [
      {
        request: () => ({ method: 'GET', path: '/api/questions/unread' }),
        expect: refused({ student: 200, otherCourse: 200, revoked: 200 }),
      },
    ],
  },
  {
    route: 'GET /api/admin/questions',
    cases: [
      {
        request: () => ({ method: 'GET', path: '/api/admin/questions?status=all' }),
        // The other instructor's queue: their courses' questions only (none).
        expect: { ...adminOnly(200), instructorOfAnotherCourse: 200 },
        check: (reply, role) => {
          noNotes(reply);
          if (role === 'admin' || role === 'instructorOfThisCourse')
            expect(reply.text).toContain('Matrix question');
          if (role === 'instructorOfAnotherCourse') expect(reply.json).toEqual({ questions: [] });
        },
      },
    ],
  },
  {
    route: 'POST /api/admin/questions/:questionId/status',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'POST',
          path: `/api/admin/questions/${state.learning?.questionId}/status`,
          json: { status: 'open' },
        }),
        expect: ofTheirCourse(),
        check: noNotes,
      },
    ],
  },
  {
    route: 'GET /api/admin/videos/:videoId/learning',
    cases: [
      {
        request: (world) => ({ method: 'GET', path: `/api/admin/videos/${world.a1.id}/learning` }),
        expect: ofTheirCourse(),
        check: (reply, role) => {
          noNotes(reply);
          if (role === 'admin' || role === 'instructorOfThisCourse')
            expect(reply.json).toEqual({ notes: 1, questions: 1 });
        },
      },
    ],
  },
  {
    route: 'DELETE /api/notes/:noteId',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'DELETE',
          path: `/api/notes/${state.learning?.noteId}`,
        }),
        // After the student's own delete, the note is gone for everyone.
        expect: refused({ student: 200, otherCourse: 404, revoked: 404 }),
      },
    ],
  },
];
