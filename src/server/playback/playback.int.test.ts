import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, traceMessages } from '../../contract/playback';
import { playbackSessions } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import type { TestClient } from '../../../test/support/http-client';
import {
  suiteAdmin,
  suiteServer,
  type TestServer,
  type TestStudent,
} from '../../../test/support/test-server';
import { watchedCourse } from '../../../test/support/watch-fixtures';
import { purgePlaybackSessionsHandler } from './housekeeping';

const DAY = 86_400_000;

describe.each(testEngines())('playback sessions and leak tracing (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  /** A ready 60 s video in a new course, the student enrolled for 30 days from now and granted it. */
  async function grantedVideo(student: TestStudent) {
    const expires = new Date(server.clock.now().getTime() + 30 * DAY);
    const { videoIds, courseId, name } = await watchedCourse(server, [student], [60], expires);
    return { videoId: videoIds[0]!, courseId, courseName: name };
  }

  it('gives each playback its own code and traces it to the student, the video and the device', async () => {
    const { client, student } = await server.studentClient();
    const { videoId, courseId, courseName } = await grantedVideo(student);
    const headers = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) LeakTest/1.0' };
    const first = await client.request('POST', '/api/playback', { json: { videoId }, headers });
    expect(first.status).toBe(200);
    const code: string = first.body.code;
    expect(code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{8}$`));
    server.clock.advance(60 * 60_000);
    const second = await client.request('POST', '/api/playback', { json: { videoId }, headers });
    expect(second.body.code).not.toBe(code);

    // Typed from a picture: lower case, a dash, spaces.
    const typed = `${code.slice(0, 4).toLowerCase()} - ${code.slice(4)}`;
    const trace = await admin.get(`/api/admin/trace/${encodeURIComponent(typed)}`);
    expect(trace.status).toBe(200);
    expect(trace.body).toMatchObject({
      session: {
        code,
        ip: '127.0.0.1',
        userAgent: headers['user-agent'],
        video: { _id: videoId, title: 'Lecture 1' },
        course: { _id: courseId, name: courseName },
      },
      student: { _id: student.id, rollno: student.rollno, username: student.username, role: 'student' },
      nearby: [expect.objectContaining({ code: second.body.code })],
    });
  });

  it('reads look-alike letters as Crockford does and refuses what cannot be a code', async () => {
    const { client, student } = await server.studentClient();
    const { videoId } = await grantedVideo(student);
    // A code with a 0 and a 1, so O, I and L can stand for them.
    await server.ctx.db
      .insert(playbackSessions)
      .values({ code: 'AB01CD01', userId: student.id, videoId, ip: '10.0.0.9', userAgent: 'x' });
    expect((await admin.get('/api/admin/trace/abOIcdOL')).body.session.code).toBe('AB01CD01');
    expect((await admin.get('/api/admin/trace/ABCDEFGU')).status).toBe(400);
    expect((await admin.get('/api/admin/trace/ABC')).body.message).toBe(traceMessages.codeInvalid);
    expect((await admin.get('/api/admin/trace/ZZZZZZZZ')).body.message).toBe(traceMessages.notFound);
    expect((await client.get('/api/admin/trace/AB01CD01')).status).toBe(403);
  });

  it('refuses a session for a video the student may not watch', async () => {
    const { client } = await server.studentClient();
    const other = await server.createActiveStudent();
    const { videoId } = await grantedVideo(other);
    expect((await client.post('/api/playback', { videoId })).status).toBe(403);
    expect((await client.post('/api/playback', { videoId: 'nope' })).status).toBe(404);
  });

  it('deletes sessions older than PLAYBACK_SESSION_DAYS', async () => {
    const student = await server.createActiveStudent();
    const { videoId } = await grantedVideo(student);
    const days = server.ctx.config.playbackSessionDays;
    const ago = (d: number) => new Date(server.clock.now().getTime() - d * DAY);
    await server.ctx.db.insert(playbackSessions).values([
      {
        code: 'AAAA0001',
        userId: student.id,
        videoId,
        ip: '10.0.0.1',
        userAgent: 'x',
        startedAt: ago(days + 1),
      },
      {
        code: 'BBBB0001',
        userId: student.id,
        videoId,
        ip: '10.0.0.1',
        userAgent: 'x',
        startedAt: ago(days - 1),
      },
    ]);
    expect((await admin.get('/api/admin/trace/AAAA0001')).status).toBe(200);
    const log = { info() {} } as never;
    const run = { jobId: 'j', attempt: 1, signal: new AbortController().signal, log };
    await purgePlaybackSessionsHandler(server.ctx)({}, run);
    expect((await admin.get('/api/admin/trace/AAAA0001')).status).toBe(404);
    expect((await admin.get('/api/admin/trace/BBBB0001')).status).toBe(200);
  });
});

/**
 * Behind a proxy the traced address comes from X-Forwarded-For, but only from the hops TRUST_PROXY
 * names: whatever the client wrote there itself (the leftmost entries) is never taken for its address.
 */
describe.each(testEngines())('the address traced behind a proxy (%s)', (engine) => {
  async function tracedAddress(server: TestServer, admin: TestClient, forwardedFor?: string) {
    const { client, student } = await server.studentClient();
    const { videoIds } = await watchedCourse(server, [student], [60]);
    const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
    const started = await client.request('POST', '/api/playback', {
      json: { videoId: videoIds[0] },
      headers,
    });
    expect(started.status).toBe(200);
    return (await admin.get(`/api/admin/trace/${started.body.code}`)).body.session.ip as string;
  }

  // [X-Forwarded-For as it arrives, the address traced]; the request itself comes from 127.0.0.1.
  describe.each([
    {
      trust: '1',
      rule: 'one proxy in front: the address it saw, not the one the client forged before it',
      seen: [
        ['6.6.6.6, 203.0.113.7', '203.0.113.7'],
        ['203.0.113.8', '203.0.113.8'],
        ['', '127.0.0.1'],
      ],
    },
    {
      trust: '127.0.0.1,10.0.0.0/8',
      rule: 'listed proxies: walked back through them only, to the first address that is not one',
      seen: [
        ['6.6.6.6, 203.0.113.7, 10.1.2.3', '203.0.113.7'],
        ['10.0.0.8, 10.1.2.3', '10.0.0.8'],
      ],
    },
  ])('TRUST_PROXY=$trust', ({ trust, rule, seen }) => {
    const server = suiteServer({ engine, env: { TRUST_PROXY: trust } });
    const admin = suiteAdmin(server);

    it(rule, async () => {
      for (const [forwardedFor, traced] of seen)
        expect(await tracedAddress(server, admin, forwardedFor)).toBe(traced);
    });
  });
});
