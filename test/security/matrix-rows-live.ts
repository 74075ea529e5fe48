import { expect } from 'vitest';
import { UNKNOWN } from '../support/course-fixtures';
import { adminOnly, everyone, type Expect, type MatrixState, type Row } from './matrix-kit';
import type { Role } from './world';

/**
 * Live classes (issue 38, docs/LIVE.md): staff of course A schedule classes there (the admin's and
 * the instructor's own), re-key and edit them; only staff see a stream key. Students of course A
 * list its classes and download a class's .ics; a student of another course, a revoked one and an
 * instructor of another course get 403.
 */
const AFTERNOON = '2026-03-02T10:00:00.000Z';

const post = (path: string, json: unknown = {}) => ({ method: 'POST', path, json });
const get = (path: string) => ({ method: 'GET', path });

const live = (state: MatrixState) => (state.live ??= {});

/** Course A's staff past the scope (`status`), the instructor of course B refused by it. */
const courseAStaff = (status: number): Expect => ({
  ...adminOnly(status),
  instructorOfThisCourse: status,
  instructorOfAnotherCourse: 403,
});
/** An id that names nothing: 404 for every staff role, at the scope. */
const nothing: Expect = { ...adminOnly(404), instructorOfThisCourse: 404, instructorOfAnotherCourse: 404 };

/** The class the admin scheduled first (the rows below use it). */
const classOf = (state: MatrixState) => live(state).classId ?? '00000000-0000-4000-8000-000000000000';

/** Who may see course A's classes as a viewer. */
const courseViewers = {
  anonymous: 401,
  student: 200,
  firstLogin: 403,
  otherCourse: 403,
  revoked: 403,
  admin: 200,
  instructorOfThisCourse: 200,
  instructorOfAnotherCourse: 403,
};

const noKeyFor = (role: Role, text: string, state: MatrixState) => {
  const key = live(state).streamKey;
  if (key && !['admin', 'instructorOfThisCourse'].includes(role)) expect(text).not.toContain(key);
};

export const liveRows: Row[] = [
  {
    route: 'POST /api/admin/live-classes',
    cases: [
      {
        request: (w) =>
          post('/api/admin/live-classes', {
            courseId: w.courseA,
            title: 'Matrix live class',
            startsAt: AFTERNOON,
            minutes: 30,
          }),
        expect: courseAStaff(201),
        check: (reply, role, _w, state) => {
          if (role === 'instructorOfThisCourse') live(state).otherClassId = reply.json._id;
          if (role !== 'admin') return;
          live(state).classId = reply.json._id;
          live(state).streamKey = reply.json.ingest.streamKey;
        },
      },
      {
        name: 'in a course that does not exist',
        request: () =>
          post('/api/admin/live-classes', {
            courseId: UNKNOWN,
            title: 'Nowhere',
            startsAt: AFTERNOON,
            minutes: 30,
          }),
        expect: nothing,
      },
    ],
  },
  {
    route: 'GET /api/admin/live-classes',
    cases: [
      {
        request: () => get('/api/admin/live-classes'),
        expect: { ...adminOnly(), instructorOfAnotherCourse: 200 },
        check: (reply, role, w) => {
          if (reply.status !== 200) return;
          const courses = (reply.json.classes as { courseId: string }[]).map((c) => c.courseId);
          // Course A's class, to everyone who may see it; none to the instructor of course B.
          expect([...new Set(courses)]).toEqual(role === 'instructorOfAnotherCourse' ? [] : [w.courseA]);
        },
      },
    ],
  },
  {
    route: 'PATCH /api/admin/live-classes/:classId',
    cases: [
      {
        request: (_w, _r, state) => ({
          method: 'PATCH',
          path: `/api/admin/live-classes/${classOf(state)}`,
          json: { description: 'Edited by the matrix' },
        }),
        expect: courseAStaff(200),
      },
      {
        name: 'no such class',
        request: () => ({
          method: 'PATCH',
          path: `/api/admin/live-classes/${UNKNOWN}`,
          json: { title: 'x' },
        }),
        expect: nothing,
      },
    ],
  },
  {
    route: 'POST /api/admin/live-classes/:classId/key',
    cases: [
      {
        request: (_w, _r, state) => post(`/api/admin/live-classes/${classOf(state)}/key`),
        expect: courseAStaff(200),
        check: (reply, role, _w, state) => {
          if (role === 'instructorOfThisCourse' && reply.status === 200)
            live(state).streamKey = reply.json.ingest.streamKey;
        },
      },
      {
        name: 'no such class',
        request: () => post(`/api/admin/live-classes/${UNKNOWN}/key`),
        expect: nothing,
      },
    ],
  },
  {
    route: 'GET /api/admin/live-classes/:classId/attendance',
    cases: [
      {
        request: (_w, _r, state) => get(`/api/admin/live-classes/${classOf(state)}/attendance`),
        expect: courseAStaff(200),
        check: (reply, role, _w, state) => {
          noKeyFor(role, reply.text, state);
          if (reply.status === 200) expect(reply.json.class._id).toBe(classOf(state));
        },
      },
      {
        name: 'as CSV',
        request: (_w, _r, state) => get(`/api/admin/live-classes/${classOf(state)}/attendance?format=csv`),
        expect: courseAStaff(200),
        check: (reply) => {
          if (reply.status === 200) expect(reply.text).toContain('Roll number,Name,Username');
        },
      },
      {
        name: 'no such class',
        request: () => get(`/api/admin/live-classes/${UNKNOWN}/attendance`),
        expect: nothing,
      },
    ],
  },
  {
    route: 'GET /api/courses/:courseId/live-classes',
    cases: [
      {
        request: (w) => get(`/api/courses/${w.courseA}/live-classes`),
        // A student route: staff get 403 at its guard.
        expect: { ...courseViewers, admin: 403, instructorOfThisCourse: 403 },
        check: (reply, role, _w, state) => noKeyFor(role, reply.text, state),
      },
    ],
  },
  {
    route: 'GET /api/live-classes/:classId/calendar.ics',
    cases: [
      {
        request: (_w, _r, state) => get(`/api/live-classes/${classOf(state)}/calendar.ics`),
        expect: courseViewers,
        check: (reply, role, _w, state) => {
          noKeyFor(role, reply.text, state);
          if (reply.status === 200) expect(reply.text).toContain(`UID:live-class-${classOf(state)}@`);
        },
      },
    ],
  },
  // nginx's rtmp callbacks: the stream key in the form body is the proof, whoever calls (cookies or
  // not); a key that opens no class is a 403 (nginx then drops the encoder), a malformed body a 400.
  ...(['publish', 'done'] as const).map((call): Row => ({
    route: `POST /api/live/rtmp/${call}`,
    public: "nginx's on_publish callbacks; the stream key in the body is the proof",
    cases: [
      {
        name: 'a key of no class',
        request: () => ({
          method: 'POST',
          path: `/api/live/rtmp/${call}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `app=live&addr=192.0.2.7&call=${call}&name=${'0'.repeat(32)}`,
        }),
        expect: everyone(403),
        check: (reply) => expect(reply.headers.get('location')).toBeNull(),
      },
      {
        name: 'no stream key',
        request: () => ({
          method: 'POST',
          path: `/api/live/rtmp/${call}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'app=live&addr=192.0.2.7',
        }),
        expect: everyone(400),
      },
    ],
  })),
  {
    route: 'DELETE /api/admin/live-classes/:classId',
    cases: [
      {
        // The admin deletes its class first (the instructor of course A then finds it gone); the
        // instructor of course B is refused the class course A's instructor scheduled.
        request: (_w, role, state) => ({
          method: 'DELETE',
          path: `/api/admin/live-classes/${role === 'instructorOfAnotherCourse' ? (live(state).otherClassId ?? UNKNOWN) : classOf(state)}`,
        }),
        expect: { ...adminOnly(200), instructorOfThisCourse: 404, instructorOfAnotherCourse: 403 },
      },
      {
        name: 'no such class',
        request: () => ({ method: 'DELETE', path: `/api/admin/live-classes/${UNKNOWN}` }),
        expect: nothing,
      },
    ],
  },
];
