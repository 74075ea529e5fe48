import { expect } from 'vitest';
import { ofTheirCourse, type MatrixState, type Row } from './matrix-kit';
import type { Role } from './world';

/**
 * Checkpoints and completion (issue 39) on lecture A1. Staff of its course place them (with the
 * answers); its viewers list them without the answers; only its student answers one. None is
 * required, so the playback rows' keys are never held by them.
 */
const ANSWER = 'Matrix checkpoint answer 5d2b';

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

const made = (state: MatrixState) => (state.checkpoints ??= { byRole: {} });
/** The checkpoint `role` made, or the one no row deletes (for everyone else). */
const checkpointOf = (state: MatrixState, role: Role) =>
  made(state).byRole[role] ?? made(state).spare ?? 'none';
const body = { t: 1, kind: 'output', prompt: 'What does this print?', answers: [ANSWER], required: false };

export const checkpointRows: Row[] = [
  {
    route: 'POST /api/admin/videos/:videoId/checkpoints',
    cases: [
      {
        request: (world) => ({
          method: 'POST',
          path: `/api/admin/videos/${world.a1.id}/checkpoints`,
          json: body,
        }),
        expect: ofTheirCourse(201),
        check: (reply, role, _world, state) => {
          if (reply.status === 201) made(state).byRole[role] = reply.json.checkpoint._id;
        },
      },
      {
        name: 'one no row deletes',
        request: (world) => ({
          method: 'POST',
          path: `/api/admin/videos/${world.a1.id}/checkpoints`,
          json: { ...body, kind: 'single', choices: ['yes', 'no'], answers: [0] },
        }),
        expect: ofTheirCourse(201),
        check: (reply, role, _world, state) => {
          if (role === 'admin') made(state).spare = reply.json.checkpoint._id;
        },
      },
    ],
  },
  {
    route: 'GET /api/admin/videos/:videoId/checkpoints',
    cases: [
      {
        request: (world) => ({ method: 'GET', path: `/api/admin/videos/${world.a1.id}/checkpoints` }),
        expect: ofTheirCourse(200),
        check: (reply) => {
          if (reply.status === 200) expect(reply.text).toContain(ANSWER);
          else expect(reply.text).not.toContain(ANSWER);
        },
      },
    ],
  },
  {
    route: 'PATCH /api/admin/checkpoints/:checkpointId',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'PATCH',
          path: `/api/admin/checkpoints/${made(state).spare}`,
          json: { prompt: 'Which one?' },
        }),
        expect: ofTheirCourse(200),
      },
    ],
  },
  {
    route: 'GET /api/videos/:videoId/checkpoints',
    cases: [
      {
        request: (world) => ({ method: 'GET', path: `/api/videos/${world.a1.id}/checkpoints` }),
        // Its viewers, never with the answers.
        expect: refused({ student: 200, admin: 200, instructorOfThisCourse: 200 }),
        check: (reply) => expect(reply.text).not.toContain(ANSWER),
      },
    ],
  },
  {
    route: 'POST /api/checkpoints/:checkpointId/attempts',
    cases: [
      {
        request: (_world, _role, state) => ({
          method: 'POST',
          path: `/api/checkpoints/${made(state).spare}/attempts`,
          json: { answer: 1 },
        }),
        expect: refused({ student: 200 }),
        check: (reply) => {
          if (reply.status === 200) expect(reply.json).toEqual({ correct: false });
          expect(reply.text).not.toContain(ANSWER);
        },
      },
    ],
  },
  {
    route: 'GET /api/courses/:courseId/completion',
    cases: [
      {
        request: (world) => ({ method: 'GET', path: `/api/courses/${world.courseA}/completion` }),
        // Not enrolled in course A: 404, as an unknown course; revoked: 403.
        expect: refused({ student: 200, otherCourse: 404 }),
      },
    ],
  },
  {
    route: 'DELETE /api/admin/checkpoints/:checkpointId',
    cases: [
      {
        request: (_world, role, state) => ({
          method: 'DELETE',
          path: `/api/admin/checkpoints/${checkpointOf(state, role)}`,
        }),
        expect: ofTheirCourse(200),
      },
    ],
  },
];
