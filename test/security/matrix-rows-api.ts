import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { searchEntries } from '../../src/server/db/schema';
import { insertFinalizedVideo } from '../support/course-fixtures';
import { makeClip } from '../support/media-kit';
import {
  adminOnly,
  everyone,
  ofTheirCourse,
  watchers,
  type Call,
  type MatrixState,
  type Row,
} from './matrix-kit';
import type { Role, World } from './world';

const post = (path: string, json: unknown = {}) => ({ method: 'POST', path, json });
const get = (path: string) => ({ method: 'GET', path });

const seeded = new WeakSet<World>();
const UNKNOWN_PASSKEY = '00000000-0000-4000-8000-000000000000';

/** A caption-free word on the screen of A1 and B1 (search_entries written as the OCR job would). */
async function seedSearch(world: World) {
  if (seeded.has(world)) return;
  seeded.add(world);
  await world.media.server.ctx.db.insert(searchEntries).values(
    [world.a1.id, world.b1.id].map((videoId) => ({
      videoId,
      source: 'screen' as const,
      startSeconds: 0,
      endSeconds: 5,
      text: 'const matrixwombat = 1;',
    })),
  );
}

/** Student sessions refused (403) and the signed-out 401, with the active students' own answers. */
const studentsOnly = (answers: Partial<Record<Role, number>>) => ({
  anonymous: 401,
  student: 403,
  firstLogin: 403,
  otherCourse: 403,
  revoked: 403,
  admin: 403,
  ...answers,
});

/** The student API (base /api), in the order the matrix calls it. */
export const studentApiRows: Row[] = [
  {
    route: 'GET /api/time',
    public: 'the opening-hours gate asks it before anyone signs in',
    cases: [
      {
        request: () => get('/api/time'),
        expect: everyone(200),
        check: (reply) => {
          expect(reply.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
          expect(reply.headers.get('x-frame-options')).toBe('DENY');
        },
      },
    ],
  },
  {
    route: 'GET /api/auth/check',
    public: 'answers valid:false without a session',
    cases: [
      {
        request: () => get('/api/auth/check'),
        expect: everyone(200),
        check: (reply, role) => {
          expect(reply.json.valid).toBe(role !== 'anonymous');
          const as = role === 'admin' ? 'admin' : role.startsWith('instructor') ? 'instructor' : 'student';
          if (role !== 'anonymous') expect(reply.json.role).toBe(as);
          if (role === 'firstLogin') expect(reply.json.firstlogin).toBe(true);
        },
      },
    ],
  },
  {
    route: 'POST /api/signin',
    public: 'sign-in; wrong credentials are 401 whoever asks',
    cases: [
      // One unknown name per route: ten failures on one name in 15 minutes are answered 429.
      {
        request: () => post('/api/signin', { username: 'nobody.student', password: 'Wrong@12345' }),
        expect: everyone(401),
      },
    ],
  },
  {
    route: 'POST /api/password/forgot',
    public: 'forgot password; the same answer whether or not the account exists',
    cases: [
      { request: () => post('/api/password/forgot', { username: 'nobody.matrix' }), expect: everyone(200) },
    ],
  },
  {
    route: 'POST /api/otp/send',
    cases: [
      {
        request: () => post('/api/otp/send'),
        // Any student session may ask for a code; the first-login student was mailed one at sign-in
        // a moment ago (the fake clock stands still), so theirs is inside the 60 s cooldown.
        expect: { anonymous: 401, student: 200, firstLogin: 429, otherCourse: 200, revoked: 200, admin: 403 },
      },
    ],
  },
  {
    route: 'POST /api/password/reset',
    cases: [
      {
        request: () => post('/api/password/reset', { otp: '000000', newpassword: 'Matrix@99999' }),
        // Without a session and a username there is no one to reset (401); a wrong code is 400; staff sessions 403.
        expect: {
          anonymous: 401,
          student: 400,
          firstLogin: 400,
          otherCourse: 400,
          revoked: 400,
          admin: 403,
          instructorOfThisCourse: 403,
          instructorOfAnotherCourse: 403,
        },
      },
    ],
  },
  {
    route: 'GET /api/courses',
    cases: [
      {
        request: () => get('/api/courses'),
        expect: studentsOnly({ student: 200, otherCourse: 200, revoked: 200 }),
        check: (reply, role, world) => {
          if (reply.status !== 200) return;
          const mine = { student: [world.courseA], otherCourse: [world.courseB], revoked: [world.courseA] }[
            role as 'student'
          ];
          expect(reply.json.courses.map((c: { courseId: string }) => c.courseId)).toEqual(mine);
          if (role === 'revoked') expect(reply.json.courses[0].access).toBe('revoked');
        },
      },
    ],
  },
  {
    route: 'POST /api/videos',
    cases: [
      {
        request: (w) => post('/api/videos', { courseId: w.courseA }),
        expect: studentsOnly({ student: 200 }),
        check: (reply, role, world) => {
          if (role === 'student')
            expect(reply.json.videos.map((v: { _id: string }) => v._id)).toEqual([world.a1.id]);
        },
      },
    ],
  },
  {
    route: 'POST /api/rollno',
    cases: [
      {
        request: (w) => post('/api/rollno', { courseId: w.courseA }),
        // A revoked student still gets their own roll number (the watermark of the expired modal).
        expect: studentsOnly({ student: 200, revoked: 200 }),
        check: (reply, role, world) => {
          if (reply.status === 200) expect(reply.json.rollno).toBe(world.people[role as 'student'].rollno);
        },
      },
    ],
  },
  {
    route: 'POST /api/progress',
    cases: [
      {
        name: 'old client',
        request: (w) => post('/api/progress', { videoId: w.a1.id, position: 1, watched: 1 }),
        expect: studentsOnly({ student: 200 }),
      },
      {
        name: 'with ranges',
        request: (w) =>
          post('/api/progress', { videoId: w.a1.id, position: 2, watched: 0, ranges: [[1, 2]], rate: 1 }),
        expect: studentsOnly({ student: 200 }),
      },
    ],
  },
  {
    route: 'GET /api/search',
    cases: [
      {
        // Both lectures carry the word: each student finds only what they may watch now.
        request: async (w) => {
          await seedSearch(w);
          return get('/api/search?q=matrixwombat');
        },
        expect: studentsOnly({ student: 200, otherCourse: 200, revoked: 200 }),
        check: (reply, role, w) => {
          if (reply.status !== 200) return;
          const ids = (reply.json.hits as { videoId: string }[]).map((h) => h.videoId);
          if (role === 'student') expect(ids).toEqual([w.a1.id]);
          if (role === 'otherCourse') expect(ids).toEqual([w.b1.id]);
          if (role === 'revoked') expect(ids).toEqual([]);
        },
      },
    ],
  },
  {
    route: 'GET /api/videos/:videoId/screen-text',
    cases: [
      {
        request: async (w) => {
          await seedSearch(w);
          return get(`/api/videos/${w.a1.id}/screen-text?t=1`);
        },
        expect: watchers,
        check: (reply) => {
          if (reply.status === 200) expect(reply.json.text).toBe('const matrixwombat = 1;');
        },
      },
    ],
  },
  {
    route: 'GET /api/videos/:videoId/frame',
    cases: [
      {
        // The still of a hit at 0 s (an entry starts there), with the video's own access rule.
        request: async (w) => {
          await seedSearch(w);
          return get(`/api/videos/${w.a1.id}/frame?t=0`);
        },
        expect: watchers,
        check: (reply) => {
          if (reply.status !== 200) return;
          expect(reply.headers.get('content-type')).toBe('image/jpeg');
          expect(reply.text.startsWith('\xff\xd8')).toBe(true);
        },
      },
    ],
  },
];

/** The admin API (base /api/admin), in the order the matrix calls it. */
export const adminApiRows: Row[] = [
  {
    route: 'POST /api/admin/login',
    public: 'admin sign-in; wrong credentials are 401 whoever asks',
    cases: [
      {
        request: () => post('/api/admin/login', { username: 'nobody.admin', password: 'Wrong@12345' }),
        expect: everyone(401),
      },
    ],
  },
  {
    route: 'POST /api/admin/setup',
    public: 'the one-time link mailed to a staff member is the proof; an unknown link is 401 whoever asks',
    cases: [
      {
        request: () => post('/api/admin/setup', { token: 'no-such-link', newPassword: 'Matrix@12345' }),
        expect: everyone(401),
      },
    ],
  },
  {
    route: 'GET /api/admin/auth/admincheck',
    public: 'answers valid:false to anyone but a signed-in admin',
    cases: [
      {
        request: () => get('/api/admin/auth/admincheck'),
        expect: everyone(200),
        check: (reply, role, w) => {
          expect(reply.json.valid).toBe(role === 'admin' || role.startsWith('instructor'));
          if (role === 'admin') expect(reply.json.role).toBe('admin');
          if (role === 'instructorOfThisCourse')
            expect(reply.json).toEqual({
              valid: true,
              role: 'instructor',
              courseIds: expect.arrayContaining([w.courseA, w.courseC]),
            });
          if (role === 'instructorOfAnotherCourse')
            expect(reply.json).toEqual({ valid: true, role: 'instructor', courseIds: [w.courseB] });
        },
      },
    ],
  },
  // Passkeys: the admin lists their own (none in the matrix school); the ceremonies need an
  // authenticator (e2e/admin-passkey.spec.ts); an unknown one is 404, and nothing opens to a student.
  {
    route: 'GET /api/admin/passkeys',
    cases: [
      {
        request: () => get('/api/admin/passkeys'),
        expect: adminOnly(),
        check: (reply, role) => {
          if (role === 'admin') expect(reply.json).toEqual({ passkeys: [] });
        },
      },
    ],
  },
  {
    route: 'DELETE /api/admin/passkeys/:passkeyId',
    cases: [
      {
        request: () => ({ method: 'DELETE', path: `/api/admin/passkeys/${UNKNOWN_PASSKEY}` }),
        expect: adminOnly(404),
      },
    ],
  },
  {
    route: 'POST /api/admin/login/passkey/options',
    cases: [
      {
        name: 'a full session without passkeys',
        request: () => post('/api/admin/login/passkey/options'),
        expect: adminOnly(403),
      },
    ],
  },
  {
    route: 'POST /api/admin/login/passkey',
    cases: [
      {
        name: 'a forged assertion (no ceremony pending)',
        request: () =>
          post('/api/admin/login/passkey', {
            credential: {
              id: 'Zm9yZ2Vk',
              rawId: 'Zm9yZ2Vk',
              type: 'public-key',
              response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
            },
          }),
        expect: adminOnly(401),
      },
    ],
  },
  ...[
    '/course/dashboard',
    '/course/list',
    '/video/courses',
    '/video/editlist',
    '/getvideolist',
    '/students',
  ].map((path): Row => ({
    route: `GET /api/admin${path}`,
    cases: [
      {
        request: () => get(`/api/admin${path}`),
        // Lists: an instructor sees the rows of their own courses only.
        expect: { ...adminOnly(), instructorOfThisCourse: 200, instructorOfAnotherCourse: 200 },
        check: (reply, role, w) => {
          if (role === 'instructorOfAnotherCourse') {
            for (const id of [w.courseA, w.courseC, w.a1.id, w.people.student.id])
              expect(reply.text).not.toContain(id);
          }
          if (role === 'instructorOfThisCourse') {
            for (const id of [w.courseB, w.b1.id, w.people.otherCourse.id])
              expect(reply.text).not.toContain(id);
          }
        },
      },
    ],
  })),
  {
    route: 'GET /api/admin/instructors',
    cases: [
      {
        request: () => get('/api/admin/instructors'),
        expect: adminOnly(),
        check: (reply, role, w) => {
          if (role !== 'admin') return;
          const listed = reply.json.instructors as { _id: string; courses: { _id: string }[] }[];
          const other = listed.find((i) => i._id === w.instructors.instructorOfAnotherCourse.id);
          expect(other?.courses.map((c) => c._id)).toEqual([w.courseB]);
        },
      },
    ],
  },
  {
    route: 'POST /api/admin/instructors/:userId/courses',
    cases: [
      {
        // The same courses again: only the admin may, and nothing changes for the rows after.
        request: (w) =>
          post(`/api/admin/instructors/${w.instructors.instructorOfAnotherCourse.id}/courses`, {
            courseIds: [w.courseB],
          }),
        expect: adminOnly(),
      },
    ],
  },
  {
    route: 'GET /api/admin/course/accesslist',
    cases: [
      { name: 'every course', request: () => get('/api/admin/course/accesslist'), expect: adminOnly() },
      {
        name: 'one course',
        request: (w) => get(`/api/admin/course/accesslist?courseId=${w.courseA}`),
        expect: adminOnly(),
      },
    ],
  },
  {
    route: 'POST /api/admin/students/dropdown',
    cases: [
      { request: (w) => post('/api/admin/students/dropdown', { courseid: w.courseA }), expect: adminOnly() },
    ],
  },
  {
    route: 'POST /api/admin/students/access',
    cases: [
      {
        request: (w) => post('/api/admin/students/access', { videoId: w.a1.id, courseId: w.courseA }),
        expect: adminOnly(),
      },
    ],
  },
  {
    route: 'POST /api/admin/course/create',
    cases: [
      {
        request: (_w, role) =>
          post('/api/admin/course/create', {
            batch: 3,
            coursecode: `MXN-${role}`,
            name: 'Matrix New Course',
            description: 'Made by the matrix.',
            startdate: '2026-02-01',
            enddate: '2026-06-30',
          }),
        expect: adminOnly(200),
      },
    ],
  },
  {
    route: 'POST /api/admin/course/update',
    cases: [
      {
        request: (w) =>
          post('/api/admin/course/update', {
            courseId: w.courseC,
            batch: 9,
            courseCode: 'MXC',
            name: 'Matrix Course C',
            description: 'Edited by the matrix.',
            startDate: '2026-01-05',
            endDate: '2026-12-18',
          }),
        expect: adminOnly(),
      },
    ],
  },
  {
    route: 'POST /api/admin/course/grantaccess',
    cases: [
      {
        request: (w) =>
          post('/api/admin/course/grantaccess', {
            courseId: w.courseC,
            studentId: w.people.spare.id,
            days: 5,
          }),
        expect: adminOnly(),
      },
    ],
  },
  {
    route: 'GET /api/admin/search',
    cases: [
      {
        request: async (w) => {
          await seedSearch(w);
          return get('/api/admin/search?q=matrixwombat');
        },
        // An instructor finds the videos of their courses only.
        expect: { ...adminOnly(), instructorOfAnotherCourse: 200 },
        check: (reply, role, w) => {
          if (reply.status !== 200) return;
          const ids = (reply.json.hits as { videoId: string }[]).map((h) => h.videoId);
          const found = {
            admin: [w.a1.id, w.b1.id],
            instructorOfThisCourse: [w.a1.id],
            instructorOfAnotherCourse: [w.b1.id],
          }[role as string];
          expect(ids.sort()).toEqual(found?.sort());
        },
      },
    ],
  },
  {
    route: 'GET /api/admin/videos/:videoId/index',
    cases: [
      {
        request: (w) => get(`/api/admin/videos/${w.a1.id}/index`),
        expect: ofTheirCourse(),
      },
    ],
  },
  {
    route: 'GET /api/admin/videos/:videoId/captions/speech-draft',
    cases: [
      {
        // A1 has no machine speech: no draft (JSON), and the file is a 404.
        request: (w) => get(`/api/admin/videos/${w.a1.id}/captions/speech-draft`),
        expect: ofTheirCourse(),
        check: (reply, role) => {
          if (role === 'admin') expect(reply.json).toEqual({ draft: null });
        },
      },
      {
        name: 'the file',
        request: (w) => get(`/api/admin/videos/${w.a1.id}/captions/speech-draft?format=vtt`),
        expect: ofTheirCourse(404),
      },
    ],
  },
  {
    route: 'POST /api/admin/videos/:videoId/captions/speech-draft/publish',
    cases: [
      {
        // Nothing to publish on A1 (no speech cues): only the admin's call gets that far.
        request: (w) =>
          post(`/api/admin/videos/${w.a1.id}/captions/speech-draft/publish`, { language: 'en' }),
        expect: ofTheirCourse(404),
      },
    ],
  },
  {
    route: 'POST /api/admin/videos/:videoId/index',
    cases: [
      {
        // Queues the video's search.index job over (only the admin's call reaches it).
        request: (w) => post(`/api/admin/videos/${w.a1.id}/index`),
        // The instructor of A1's course reaches it too, while the admin's job is still queued (409).
        expect: ofTheirCourse(202, 409),
        check: (reply, role) => {
          if (role === 'admin') expect(reply.json.message).toBe('Indexing queued.');
        },
      },
    ],
  },
];

/** Admin writes on the video the matrix uploaded through the streamer (after the upload rows). */
export const adminVideoRows: Row[] = [
  {
    route: 'POST /api/admin/video/upload',
    cases: [
      {
        request: (w, _role, state) =>
          post('/api/admin/video/upload', {
            title: 'Matrix spare',
            description: 'Uploaded by the matrix.',
            url: state.spare!.url,
            courses: w.courseC,
            rollnos: [],
          }),
        expect: ofTheirCourse(),
      },
    ],
  },
  {
    route: 'POST /api/admin/video/update',
    cases: [
      {
        request: (w, _role, state) =>
          post('/api/admin/video/update', {
            videoId: state.spare!.id,
            title: 'Matrix spare (edited)',
            description: 'Edited by the matrix.',
            course: w.courseC,
          }),
        expect: ofTheirCourse(),
      },
    ],
  },
  {
    route: 'POST /api/admin/video/grant',
    cases: [
      {
        request: (w, _role, state) =>
          post('/api/admin/video/grant', { videoId: state.spare!.id, studentIds: [w.people.spare.id] }),
        expect: adminOnly(),
        check: (reply, role) => {
          if (role === 'admin') expect(reply.json.granted).toBe(1);
        },
      },
    ],
  },
  {
    route: 'POST /api/admin/video/revoke',
    cases: [
      {
        request: (w, _role, state) =>
          post('/api/admin/video/revoke', { videoId: state.spare!.id, studentIds: [w.people.spare.id] }),
        expect: adminOnly(),
        check: (reply, role) => {
          if (role === 'admin') expect(reply.json.revoked).toBe(1);
        },
      },
    ],
  },
  {
    route: 'POST /api/admin/course/revokeaccess',
    cases: [
      {
        request: (w) =>
          post('/api/admin/course/revokeaccess', {
            courseId: w.courseC,
            studentId: w.people.spare.id,
            accessrevokedreason: 'Matrix',
          }),
        expect: adminOnly(),
      },
    ],
  },
  {
    route: 'POST /api/admin/students',
    cases: [
      {
        request: (_w, role) =>
          post('/api/admin/students', {
            rollno: `MXA-${role}`,
            name: 'Added By Matrix',
            email: `added.${role.toLowerCase()}@school.test`,
          }),
        expect: adminOnly(201),
      },
    ],
  },
  {
    route: 'POST /api/admin/students/import/preview',
    cases: [
      {
        request: () =>
          post('/api/admin/students/import/preview', {
            csv: 'rollno,name,email\nMXI-1,Imp One,imp.one@school.test\n',
          }),
        expect: adminOnly(),
      },
    ],
  },
  {
    route: 'POST /api/admin/students/import',
    cases: [
      {
        request: () =>
          post('/api/admin/students/import', {
            csv: 'rollno,name,email\nMXI-2,Imp Two,imp.two@school.test\n',
          }),
        expect: adminOnly(201),
      },
    ],
  },
  {
    route: 'POST /api/admin/students/enrol',
    cases: [
      {
        request: (w) =>
          post('/api/admin/students/enrol', {
            courseId: w.courseC,
            studentIds: [w.people.spare.id],
            days: 3,
          }),
        expect: adminOnly(),
      },
    ],
  },
  {
    route: 'POST /api/admin/students/:studentId/password',
    cases: [
      { request: (w) => post(`/api/admin/students/${w.people.spare.id}/password`), expect: adminOnly() },
    ],
  },
  {
    route: 'GET /api/admin/students/:studentId/history',
    cases: [{ request: (w) => get(`/api/admin/students/${w.people.spare.id}/history`), expect: adminOnly() }],
  },
  {
    route: 'GET /api/admin/analytics/videos/:videoId',
    cases: [
      {
        name: 'json',
        request: (w) => get(`/api/admin/analytics/videos/${w.a1.id}`),
        expect: ofTheirCourse(),
      },
      {
        name: 'csv',
        request: (w) => get(`/api/admin/analytics/videos/${w.a1.id}?format=csv`),
        expect: ofTheirCourse(),
        check: (reply) => {
          if (reply.status === 200) expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        },
      },
    ],
  },
  {
    route: 'GET /api/admin/analytics/courses/:courseId',
    cases: [
      {
        name: 'json',
        request: (w) => get(`/api/admin/analytics/courses/${w.courseA}?filter=at-risk`),
        expect: ofTheirCourse(),
      },
      {
        name: 'csv',
        request: (w) => get(`/api/admin/analytics/courses/${w.courseA}?format=csv`),
        expect: ofTheirCourse(),
      },
    ],
  },
  {
    route: 'GET /api/admin/analytics/students/:studentId',
    cases: [
      {
        name: 'json',
        request: (w) => get(`/api/admin/analytics/students/${w.people.student.id}`),
        expect: adminOnly(),
      },
      {
        name: 'csv',
        request: (w) => get(`/api/admin/analytics/students/${w.people.student.id}?format=csv`),
        expect: adminOnly(),
      },
    ],
  },
];

/** Sign-outs end the session, so they run last. */
export const signOutRows: Row[] = [
  {
    route: 'POST /api/logout',
    public: 'signing out without a session is harmless',
    cases: [{ request: () => post('/api/logout'), expect: everyone(200) }],
  },
  {
    route: 'POST /api/admin/logout',
    public: 'signing out without a session is harmless',
    cases: [{ request: () => post('/api/admin/logout'), expect: everyone(200) }],
  },
];

/** Load balancer probes: the same answer for everyone, nothing of anyone in it, no secret. */
export const probeRows: Row[] = [
  {
    route: 'GET /healthz',
    public: 'liveness probe: says only that the process serves',
    cases: [
      {
        request: () => get('/healthz'),
        expect: everyone(200),
        check: (reply) => expect(reply.json).toEqual({ status: 'ok' }),
      },
    ],
  },
  {
    route: 'GET /readyz',
    public: 'readiness probe for the load balancer',
    cases: [
      {
        request: () => get('/readyz'),
        expect: everyone(200),
        check: (reply, _role, world) => {
          expect(reply.json.status).toBe('ready');
          expect(Object.keys(reply.json.checks).sort()).toEqual(
            [
              'backup',
              'database',
              'disk',
              'ffmpeg',
              'live ingest',
              'migrations',
              'store',
              'tesseract',
            ].sort(),
          );
          for (const check of Object.values(reply.json.checks) as { ok: boolean; ms: number }[])
            expect(check).toMatchObject({ ok: true, ms: expect.any(Number) });
          // Where the data lives and the signing key are nobody's business.
          expect(reply.text).not.toContain(world.media.server.dataDir);
          expect(reply.text).not.toContain(world.media.server.ctx.signingKey.toString('hex'));
        },
      },
    ],
  },
];

/** A copy long enough to trace (the route refuses shorter ones), sent with the video it is from. */
async function traceUpload(world: World, state: MatrixState): Promise<Call> {
  state.trace ??= {
    // A video row with a forensic secret: what the upload needs to find before it takes a copy.
    videoId: (
      await insertFinalizedVideo(world.media.server, { status: 'ready', forensicSecret: 'ab'.repeat(32) })
    ).id,
    copy: await readFile(await makeClip({ seconds: 105 })),
  };
  const { videoId, copy } = state.trace;
  return {
    method: 'POST',
    path: '/api/admin/trace-runs',
    form: () => {
      const form = new FormData();
      form.append('videoId', videoId);
      form.append('file', new Blob([new Uint8Array(copy)]), 'leak.mp4');
      return form;
    },
  };
}

/** Tracing a downloaded copy (after the admin rows): an admin's upload queues a run only admins see. */
export const traceRunRows: Row[] = [
  {
    route: 'POST /api/admin/trace-runs',
    cases: [
      {
        name: 'no file',
        request: () => ({ method: 'POST', path: '/api/admin/trace-runs', form: () => new FormData() }),
        expect: adminOnly(400),
      },
      {
        name: 'a copy to trace',
        request: (w, _role, state) => traceUpload(w, state),
        expect: adminOnly(202),
        check: (reply, role, _w, state) => {
          if (role !== 'admin') return;
          expect(reply.json.run).toMatchObject({ status: 'queued', fileName: 'leak.mp4' });
          state.trace!.runId = reply.json.run.id;
        },
      },
    ],
  },
  {
    route: 'GET /api/admin/trace-runs',
    cases: [
      {
        request: () => get('/api/admin/trace-runs'),
        expect: adminOnly(),
        check: (reply, role, _w, state) => {
          if (role === 'admin')
            expect(reply.json.runs.map((r: { id: string }) => r.id)).toContain(state.trace!.runId);
        },
      },
    ],
  },
  {
    route: 'GET /api/admin/trace-runs/:runId',
    cases: [
      {
        request: (_w, _role, state) => get(`/api/admin/trace-runs/${state.trace!.runId}`),
        expect: adminOnly(),
        check: (reply, role, _w, state) => {
          if (role === 'admin') expect(reply.json.run.id).toBe(state.trace!.runId);
        },
      },
    ],
  },
];
