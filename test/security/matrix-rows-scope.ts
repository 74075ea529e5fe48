import { expect } from 'vitest';
import { insertFinalizedVideo, UNKNOWN } from '../support/course-fixtures';
import { everyone, ofTheirCourse, unknownToStaff, watchers, type Call, type Row } from './matrix-kit';
import type { Role, World } from './world';

/**
 * Instructor rights on real resources (issue 37): the caption routes and playback sessions of
 * lecture A1 (course A, taught by instructorOfThisCourse), an upload of that instructor not yet in
 * a course, and every scoped staff route called with an id that names nothing.
 */

const post = (path: string, json: unknown = {}): Call => ({ method: 'POST', path, json });
const get = (path: string): Call => ({ method: 'GET', path });

/** Each staff role writes its own caption language, so each one's delete finds its own track. */
const LANGUAGE: Partial<Record<Role, string>> = { admin: 'en', instructorOfThisCourse: 'fr' };
const languageOf = (role: Role) => LANGUAGE[role] ?? 'de';
const CAPTION_TEXT = 'Matrix caption line';

const captionForm = (language: string) => () => {
  const form = new FormData();
  form.append('language', language);
  form.append('label', 'Matrix');
  form.append(
    'file',
    new Blob([`WEBVTT\n\n00:00.000 --> 00:01.000\n${CAPTION_TEXT}\n`], { type: 'text/vtt' }),
    'a1.vtt',
  );
  return form;
};

/** Caption tracks of A1: staff of its course write them, its viewers read them. */
export const captionRows: Row[] = [
  {
    route: 'POST /api/admin/videos/:videoId/captions',
    cases: [
      {
        request: (w, role) => ({
          method: 'POST',
          path: `/api/admin/videos/${w.a1.id}/captions`,
          form: captionForm(languageOf(role)),
        }),
        expect: ofTheirCourse(),
      },
    ],
  },
  {
    route: 'GET /api/admin/videos/:videoId/captions',
    cases: [
      {
        request: (w) => get(`/api/admin/videos/${w.a1.id}/captions`),
        expect: ofTheirCourse(),
        check: (reply) => {
          if (reply.status !== 200) return;
          const languages = (reply.json.captions as { language: string }[]).map((c) => c.language);
          expect(languages.sort()).toEqual(['en', 'fr']);
        },
      },
    ],
  },
  {
    route: 'GET /api/videos/:videoId/captions',
    cases: [
      {
        request: (w) => get(`/api/videos/${w.a1.id}/captions`),
        expect: watchers,
        check: (reply) => {
          if (reply.status === 200) expect(reply.json.captions).toHaveLength(2);
        },
      },
    ],
  },
  {
    route: 'GET /api/videos/:videoId/captions/:language',
    cases: [
      {
        request: (w) => get(`/api/videos/${w.a1.id}/captions/en`),
        expect: watchers,
        check: (reply) => {
          if (reply.status === 200) expect(reply.text).toContain(CAPTION_TEXT);
          else expect(reply.text).not.toContain(CAPTION_TEXT);
        },
      },
    ],
  },
  {
    route: 'DELETE /api/admin/videos/:videoId/captions/:language',
    cases: [
      {
        request: (w, role) => ({
          method: 'DELETE',
          path: `/api/admin/videos/${w.a1.id}/captions/${languageOf(role)}`,
        }),
        expect: ofTheirCourse(),
      },
    ],
  },
];

const ownUploads = new WeakMap<World, Promise<string>>();

/** A video instructorOfThisCourse uploaded and has not yet put in a course. */
function ownUpload(world: World): Promise<string> {
  let id = ownUploads.get(world);
  if (!id) {
    id = insertFinalizedVideo(world.media.server, {
      status: 'ready',
      createdBy: world.instructors.instructorOfThisCourse.id,
    }).then((row) => row.id);
    ownUploads.set(world, id);
  }
  return id;
}

/** Playback sessions (the code the player draws): the video's own rule, the one instructor rule included. */
export const playbackSessionRows: Row[] = [
  {
    route: 'POST /api/playback',
    cases: [
      {
        name: 'lecture A1',
        request: (w) => post('/api/playback', { videoId: w.a1.id }),
        expect: watchers,
        check: (reply) => {
          if (reply.status === 200) expect(reply.json.code).toEqual(expect.any(String));
        },
      },
      {
        name: "the instructor's own upload, in no course yet",
        request: async (w) => post('/api/playback', { videoId: await ownUpload(w) }),
        // As staff routes reach it: its uploader and the admin, no student, not the other instructor.
        expect: { ...everyone(403), anonymous: 401, admin: 200, instructorOfThisCourse: 200 },
      },
      {
        name: 'a video that does not exist',
        request: () => post('/api/playback', { videoId: UNKNOWN }),
        expect: { ...everyone(404), anonymous: 401, firstLogin: 403 },
      },
    ],
  },
];

const unknownVideo = `/api/admin/videos/${UNKNOWN}`;

/** One case per scoped staff route whose id names nothing: 404 for every staff role, before the handler. */
const UNKNOWN_CALLS: Record<string, (w: World) => Call> = {
  'POST /api/admin/video/upload': (w) =>
    post('/api/admin/video/upload', {
      title: 'Nothing',
      description: 'No such upload.',
      url: `/stream/videos/${UNKNOWN}/master.m3u8`,
      courses: w.courseA,
      rollnos: [],
    }),
  'POST /api/admin/delete/video': () => post('/api/admin/delete/video', { videoId: UNKNOWN }),
  'POST /api/admin/video/update': () =>
    post('/api/admin/video/update', { videoId: UNKNOWN, title: 'Nothing', description: 'No such video.' }),
  'GET /api/admin/students': () => get(`/api/admin/students?courseId=${UNKNOWN}`),
  'GET /api/admin/analytics/videos/:videoId': () => get('/api/admin/analytics/videos/not-a-video-id'),
  'GET /api/admin/analytics/courses/:courseId': () => get(`/api/admin/analytics/courses/${UNKNOWN}`),
  'GET /api/admin/videos/:videoId/captions': () => get(`${unknownVideo}/captions`),
  'POST /api/admin/videos/:videoId/captions': () => ({
    method: 'POST',
    path: `${unknownVideo}/captions`,
    form: captionForm('en'),
  }),
  'DELETE /api/admin/videos/:videoId/captions/:language': () => ({
    method: 'DELETE',
    path: `${unknownVideo}/captions/en`,
  }),
  'GET /api/admin/videos/:videoId/captions/speech-draft': () => get(`${unknownVideo}/captions/speech-draft`),
  'POST /api/admin/videos/:videoId/captions/speech-draft/publish': () =>
    post(`${unknownVideo}/captions/speech-draft/publish`, { language: 'en' }),
  'POST /api/questions/:questionId/answers': () =>
    post(`/api/questions/${UNKNOWN}/answers`, { text: 'To nothing.' }),
  'POST /api/admin/questions/:questionId/status': () =>
    post(`/api/admin/questions/${UNKNOWN}/status`, { status: 'open' }),
  'GET /api/admin/videos/:videoId/learning': () => get(`${unknownVideo}/learning`),
  'GET /api/admin/videos/:videoId/index': () => get(`${unknownVideo}/index`),
  'POST /api/admin/videos/:videoId/index': () => post(`${unknownVideo}/index`),
  'DELETE /stream/videos/:id': () => ({ method: 'DELETE', path: `/stream/videos/${UNKNOWN}` }),
};

export const unknownIdRows: Row[] = Object.entries(UNKNOWN_CALLS).map(([route, call]) => ({
  route,
  cases: [
    {
      name: 'an id that names nothing',
      request: (w) => call(w),
      expect: unknownToStaff,
      check: (reply) => {
        if (reply.status === 404) expect(reply.json).toEqual({ message: expect.any(String) });
      },
    },
  ],
}));

/** Course filters and moves into a course the instructor does not teach. */
export const otherCourseRows: Row[] = [
  {
    route: 'GET /api/admin/students',
    cases: [
      {
        name: "course A's students",
        request: (w) => get(`/api/admin/students?courseId=${w.courseA}`),
        expect: ofTheirCourse(),
        check: (reply, _role, w) => {
          if (reply.status === 200) expect(reply.text).toContain(w.people.student.id);
        },
      },
    ],
  },
];

/** The same request with another body for the admin, who would otherwise move the video. */
const adminKeeps = (w: World, role: Role, other: string) => (role === 'admin' ? w.courseC : other);

/** Deleting a video of course C: each role a fresh one of its own, so each delete has something to delete. */
export const deleteOwnRows: Row[] = [
  {
    route: 'POST /api/admin/delete/video',
    cases: [
      {
        name: 'a video of course C',
        request: async (w) => {
          const video = await insertFinalizedVideo(w.media.server, { status: 'ready', courseId: w.courseC });
          return post('/api/admin/delete/video', { videoId: video.id });
        },
        expect: ofTheirCourse(),
      },
    ],
  },
];

/** Moving the spare video (in course C) where its instructor does not teach: refused before the handler. */
export const moveRows: Row[] = [
  {
    route: 'POST /api/admin/video/upload',
    cases: [
      {
        name: 'naming it into course B',
        request: (w, role, state) =>
          post('/api/admin/video/upload', {
            title: 'Matrix spare',
            description: 'Uploaded by the matrix.',
            url: state.spare!.url,
            courses: adminKeeps(w, role, w.courseB),
            rollnos: [],
          }),
        expect: ofTheirCourse(200, 403),
      },
    ],
  },
  {
    route: 'POST /api/admin/video/update',
    cases: [
      {
        name: 'into course B',
        request: (w, role, state) =>
          post('/api/admin/video/update', {
            videoId: state.spare!.id,
            title: 'Matrix spare (edited)',
            description: 'Edited by the matrix.',
            course: adminKeeps(w, role, w.courseB),
          }),
        expect: ofTheirCourse(200, 403),
      },
      {
        name: 'out of every course',
        request: (w, role, state) => ({
          method: 'POST',
          path: '/api/admin/video/update',
          json: {
            videoId: state.spare!.id,
            title: 'Matrix spare (edited)',
            description: 'Edited by the matrix.',
            course: role === 'admin' ? w.courseC : null,
          },
        }),
        expect: ofTheirCourse(200, 403),
      },
    ],
  },
];
