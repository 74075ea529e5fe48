import { expect } from 'vitest';
import { playbackTokens } from '../../src/server/media/delivery/tokens';
import {
  adminOnly,
  everyone,
  ofTheirCourse,
  playlistUris,
  watchers,
  withoutToken,
  type Expect,
  type Row,
} from './matrix-kit';

const SPARE_NAME = 'matrix-spare.mp4';

const withQuery = (url: string, pair: string) => `${url}${url.includes('?') ? '&' : '?'}${pair}`;

/** Requests that carry the caller's own link (bound to their session): only those who opened the master have one. */
const ownToken: Expect = { ...everyone(403), student: 200, admin: 200, instructorOfThisCourse: 200 };
/** Uploads belong to their uploader, not yet to a course: any instructor uploads (the course comes when it is named). */
const uploaders: Expect = { ...adminOnly(), instructorOfThisCourse: 200, instructorOfAnotherCourse: 200 };

/** Chunked upload and finalize of a spare video (before the admin rows that name it). */
export const uploadRows: Row[] = [
  {
    route: 'POST /stream/upload-chunk',
    cases: [
      {
        request: (w) => ({
          method: 'POST',
          path: '/stream/upload-chunk',
          form: () => {
            const form = new FormData();
            form.append('fileName', SPARE_NAME);
            form.append('start', '0');
            form.append('file', new Blob([new Uint8Array(w.clip)]), 'blob');
            return form;
          },
        }),
        expect: uploaders,
      },
    ],
  },
  {
    route: 'GET /stream/upload-status',
    cases: [
      {
        request: () => ({ method: 'GET', path: `/stream/upload-status?fileName=${SPARE_NAME}` }),
        expect: uploaders,
        check: (reply, role, w) => {
          if (role === 'admin') expect(reply.json.offset).toBe(w.clip.length);
        },
      },
    ],
  },
  {
    route: 'POST /stream/upload',
    cases: [
      {
        request: () => ({ method: 'POST', path: '/stream/upload', headers: { filename: SPARE_NAME } }),
        expect: uploaders,
        check: (reply, role, _w, state) => {
          if (role !== 'admin') return;
          const id = /videos\/([0-9a-f-]{36})\//.exec(reply.json.url)![1]!;
          state.spare = { id, url: reply.json.url };
        },
      },
    ],
  },
];

/** Playback of lecture A1: master, child playlist, segments (fast path and route), key and poster. */
export const playbackRows: Row[] = [
  {
    route: 'GET /stream/videos/:id/master.m3u8',
    cases: [
      {
        request: (w) => ({ method: 'GET', path: w.a1.url }),
        expect: watchers,
        check: (reply, role, w, state) => {
          if (reply.status !== 200) return;
          expect(reply.text).toMatch(/^#EXTM3U/);
          const child = new URL(playlistUris(reply.text)[0]!, new URL(w.a1.url, w.url)).toString();
          state.playback[role] = { child, segment: '', key: '' };
        },
      },
    ],
  },
  {
    route: 'GET /stream/videos/:id/:rendition/:file',
    cases: [
      {
        name: 'child playlist, own token',
        request: (_w, role, state) => ({
          method: 'GET',
          path: state.playback[role]?.child ?? withoutToken(state.playback.student!.child),
        }),
        expect: ownToken,
        check: (reply, role, _w, state) => {
          if (reply.status !== 200) return;
          const uris = playlistUris(reply.text);
          const base = state.playback[role]!.child;
          state.playback[role]!.segment = new URL(uris[0]!, base).toString();
          state.playback[role]!.key = new URL(uris.at(-1)!, base).toString();
          expect(reply.text).toContain('#EXT-X-KEY:METHOD=AES-128');
        },
      },
      {
        name: 'segment, own token, served by the fast path',
        request: (_w, role, state) => ({
          method: 'GET',
          path: state.playback[role]?.segment ?? withoutToken(state.playback.student!.segment),
        }),
        expect: ownToken,
        check: (reply) => {
          if (reply.status !== 200) return;
          expect(reply.headers.get('content-type')).toBe('video/mp2t');
          expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
          expect(reply.headers.get('cross-origin-resource-policy')).toBe('same-origin');
          // Helmet's headers come from Fastify: without them, the answer came from the fast path.
          expect(reply.headers.get('content-security-policy')).toBeNull();
        },
      },
      {
        // Allowed by the cached decision, missing on disk: the fast path's own 404.
        // The fast path hands a segment its remembered store lacks to the route, which asks the
        // database afresh (the video may have moved to another store): the route answers the 404.
        // A link signs the file it names, so this one is signed for seg_99999 as the server would.
        name: 'segment beyond the last, own token, fast path declines to the route',
        request: (w, role, state) => {
          const own = state.playback[role]?.segment;
          if (!own)
            return {
              method: 'GET',
              path: withoutToken(state.playback.student!.segment).replace(/seg_\d{5}/, 'seg_99999'),
            };
          const url = new URL(own, w.url);
          const [, , , id, rendition] = url.pathname.split('/') as [string, string, string, string, string];
          const { ctx, clock } = w.media.server;
          const token = playbackTokens(ctx.signingKey).sign(
            id,
            `${rendition}/seg_99999.ts`,
            w.tokens[role]!,
            clock.now().getTime(),
          );
          return { method: 'GET', path: `/stream/videos/${id}/${rendition}/seg_99999.ts?t=${token}` };
        },
        expect: { ...ownToken, student: 404, admin: 404, instructorOfThisCourse: 404 },
        check: (reply) => {
          if (reply.status !== 404) return;
          expect(reply.json).toEqual({ message: 'Video not found.' });
          expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
          expect(reply.headers.get('cross-origin-resource-policy')).toBe('same-origin');
          expect(reply.headers.get('content-security-policy')).not.toBeNull();
        },
      },
      {
        name: 'segment, own token, through the Fastify route',
        // An extra query parameter is beyond the fast path's pattern: the route answers instead.
        request: (_w, role, state) => ({
          method: 'GET',
          path: withQuery(
            state.playback[role]?.segment ?? withoutToken(state.playback.student!.segment),
            'via=route',
          ),
        }),
        expect: ownToken,
        check: (reply) => {
          if (reply.status !== 200) return;
          expect(reply.headers.get('content-security-policy')).toContain("default-src 'self'");
          expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
          expect(reply.headers.get('cross-origin-resource-policy')).toBe('same-origin');
        },
      },
      {
        // Links are bound to the session they were made for: copied to another browser or account,
        // they are refused (and the bytes are ciphertext anyway; keys need a session that may watch).
        name: "the student's segment URL, copied",
        request: (_w, _role, state) => ({ method: 'GET', path: state.playback.student!.segment }),
        expect: { ...everyone(403), student: 200 },
      },
      {
        name: "the student's child playlist URL, copied",
        request: (_w, _role, state) => ({ method: 'GET', path: state.playback.student!.child }),
        expect: { ...everyone(403), student: 200 },
      },
      {
        name: 'child playlist without a token',
        request: (_w, _role, state) => ({ method: 'GET', path: withoutToken(state.playback.student!.child) }),
        expect: everyone(403),
      },
    ],
  },
  {
    route: 'GET /stream/videos/:id/keys/:period',
    cases: [
      {
        // The key URL carries nothing secret: each request is decided by its own session's access.
        name: "the student's key URL, by every role",
        request: (_w, _role, state) => ({ method: 'GET', path: state.playback.student!.key }),
        expect: watchers,
        check: (reply) => {
          if (reply.status === 200) expect(reply.text.length).toBe(16);
        },
      },
    ],
  },
  {
    route: 'GET /stream/videos/:id/poster.jpg',
    cases: [
      {
        request: (w) => ({ method: 'GET', path: `/stream/videos/${w.a1.id}/poster.jpg` }),
        expect: watchers,
        check: (reply) => {
          if (reply.status === 200) expect(reply.headers.get('content-type')).toBe('image/jpeg');
        },
      },
    ],
  },
  {
    route: 'GET /thumbnails/:file',
    public: 'content-addressed course and video images; names are unguessable hashes',
    cases: [
      {
        request: (w) => ({ method: 'GET', path: w.thumbnail }),
        expect: everyone(200),
        check: (reply) => expect(reply.headers.get('x-content-type-options')).toBe('nosniff'),
      },
      {
        name: 'unknown file',
        request: () => ({ method: 'GET', path: `/thumbnails/${'0'.repeat(64)}.png` }),
        expect: everyone(404),
      },
    ],
  },
];

/** Deleting the spare video: the streamer's files first, then the admin's rows. */
export const deleteRows: Row[] = [
  {
    route: 'DELETE /stream/videos/:id',
    cases: [
      {
        request: async (w, _role, state) => {
          await w.media.settled(state.spare!.id); // not racing its packaging
          return { method: 'DELETE', path: `/stream/videos/${state.spare!.id}` };
        },
        expect: ofTheirCourse(),
      },
    ],
  },
  {
    route: 'POST /api/admin/delete/video',
    cases: [
      {
        request: (_w, _role, state) => ({
          method: 'POST',
          path: '/api/admin/delete/video',
          json: { videoId: state.spare!.id },
        }),
        // After the admin's delete the video is gone for both instructors (the other instructor's 403
        // on it, while it was there, is the DELETE /stream row's).
        expect: { ...adminOnly(), instructorOfThisCourse: 404, instructorOfAnotherCourse: 404 },
      },
    ],
  },
];
