import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '../../contract/messages';
import type { TestClient } from '../../../test/support/http-client';
import { TestServer } from '../../../test/support/test-server';
import { watchedCourse } from '../../../test/support/watch-fixtures';
import { mediaKeys } from '../storage';

// Engine-independent behaviour: run on PGlite only.
describe('opening hours on the server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({
      engine: 'pglite',
      env: { OPEN_HOURS: '10-22', OPEN_TZ: 'Asia/Kolkata' },
    });
  });
  afterAll(() => server?.close());

  it('reports the hour in the configured zone and whether it is open', async () => {
    server.clock.set('2026-03-02T08:00:00Z'); // 13:30 IST
    const open = await server.client().get('/api/time');
    expect(open.body).toMatchObject({
      hour: 13,
      open: true,
      opensAt: null,
      timeZone: 'Asia/Kolkata',
      hours: [10, 22],
    });
    expect(open.body.closesAt).toBe('2026-03-02T16:30:00.000Z'); // 22:00 IST

    server.clock.set('2026-03-02T17:00:00Z'); // 22:30 IST
    const closed = await server.client().get('/api/time');
    expect(closed.body).toMatchObject({ hour: 22, open: false, closesAt: null });
    expect(closed.body.opensAt).toBe('2026-03-03T04:30:00.000Z'); // 10:00 IST next day
  });

  it('answers 503 on student routes outside hours, except the time and the session check', async () => {
    const student = await server.createActiveStudent();
    server.clock.set('2026-03-02T08:00:00Z');
    const { client } = await server.studentClient(student);
    server.clock.set('2026-03-02T20:00:00Z'); // 01:30 IST
    const signIn = await server
      .client()
      .post('/api/signin', { username: student.username, password: student.password });
    expect(signIn.status).toBe(503);
    expect(signIn.body.message).toBe('Lectern is closed right now. It opens again at 10:00 (Asia/Kolkata).');
    expect(signIn.body.opensAt).toBe('2026-03-03T04:30:00.000Z');
    expect((await client.post('/api/otp/send')).status).toBe(503);
    expect((await client.post('/api/password/forgot', { username: 'x' })).status).toBe(503);
    expect((await client.get('/api/time')).status).toBe(200);
    expect((await client.get('/api/auth/check')).body.valid).toBe(true);
    // Admins run the school at any hour.
    const admin = await server.createAdmin();
    const adminLogin = await server
      .client()
      .adminLogin({ username: admin.username, password: admin.password });
    expect(adminLogin.status).toBe(200);
  });

  it('closes captions, posters, playback sessions, playlists and keys to students outside hours, not to admins', async () => {
    server.clock.set('2026-03-02T08:00:00Z'); // 13:30 IST
    const { client: student, student: who } = await server.studentClient();
    const { client: admin } = await server.adminClient();
    const { videoIds } = await watchedCourse(server, [who], [60]);
    const videoId = videoIds[0]!;
    const form = new FormData();
    form.set('language', 'en');
    form.set('label', 'English');
    form.set('file', new Blob(['WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n']), 'en.vtt');
    expect(
      (await admin.request('POST', `/api/admin/videos/${videoId}/captions`, { body: form })).status,
    ).toBe(200);
    await server.ctx.media.of('local').put(mediaKeys.poster(videoId), Buffer.from('jpeg'));
    const calls = [
      (c: TestClient) => c.get(`/api/videos/${videoId}/captions`),
      (c: TestClient) => c.get(`/api/videos/${videoId}/captions/en`),
      (c: TestClient) => c.get(`/stream/videos/${videoId}/poster.jpg`),
      (c: TestClient) => c.post('/api/playback', { videoId }),
    ];
    for (const call of calls) expect((await call(student)).status).toBe(200);

    server.clock.set('2026-03-02T20:00:00Z'); // 01:30 IST
    for (const call of [
      ...calls,
      (c: TestClient) => c.get(`/stream/videos/${videoId}/master.m3u8`),
      (c: TestClient) => c.get(`/stream/videos/${videoId}/keys/0`),
    ]) {
      const closed = await call(student);
      expect(closed.status).toBe(503);
      expect(closed.body).toEqual({
        message: 'Lectern is closed right now. It opens again at 10:00 (Asia/Kolkata).',
        opensAt: '2026-03-03T04:30:00.000Z',
      });
    }
    // Admins run the school at any hour.
    for (const call of calls) expect((await call(admin)).status).toBe(200);
  });
});

describe('request guards', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ engine: 'pglite', env: { OPEN_HOURS: 'always' } });
  });
  afterAll(() => server?.close());

  it('refuses a cross-origin POST that carries the session cookie', async () => {
    const { client } = await server.studentClient();
    const evil = await client.post('/api/logout', {}, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body.message).toBe(serverMessages.crossOrigin);
    expect((await client.get('/api/auth/check')).body.valid).toBe(true);
    const crossSite = await client.post('/api/logout', {}, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const sameOrigin = await client.post('/api/logout', {}, { origin: server.url });
    expect(sameOrigin.status).toBe(200);
  });

  it('rate-limits an IP after 100 failed sign-ins across accounts', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await server
        .client()
        .post('/api/signin', { username: `nobody${i}`, password: 'Wrong@123x' });
      expect(res.status).toBe(401);
    }
    const student = await server.createActiveStudent();
    const blocked = await server
      .client()
      .post('/api/signin', { username: student.username, password: student.password });
    expect(blocked.status).toBe(429);
    server.clock.advance(15 * 60_000 + 1000);
    expect(
      (await server.client().post('/api/signin', { username: student.username, password: student.password }))
        .status,
    ).toBe(200);
  });

  it('answers unknown API paths with a JSON 404 and sets security headers', async () => {
    const res = await server.client().get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found.' });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=31536000');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('answers an oversized body with 413', async () => {
    const res = await server
      .client()
      .post('/api/signin', { username: 'x'.repeat(5 * 1024 * 1024), password: 'y' });
    expect(res.status).toBe(413);
    expect(res.body.message).toBeTruthy();
  });
});
