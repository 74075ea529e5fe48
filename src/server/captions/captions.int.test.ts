import { describe, expect, it } from 'vitest';
import { captionMessages } from '../../contract/captions';
import { MAX_CAPTION_BYTES } from '../../contract/webvtt';
import { enrollments, videoAccess } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import type { TestClient } from '../../../test/support/http-client';
import { suiteAdmin, suiteServer } from '../../../test/support/test-server';
import { watchedCourse } from '../../../test/support/watch-fixtures';

const SRT = '1\n00:00:01,000 --> 00:00:03,000\nHello class\n\n2\n00:00:04,000 --> 00:00:06,500\nSecond cue\n';

function upload(client: TestClient, videoId: string, fields: Record<string, string>, file?: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file !== undefined) form.set('file', new Blob([file]), 'captions.srt');
  return client.request('POST', `/api/admin/videos/${videoId}/captions`, { body: form });
}

describe.each(testEngines())('captions (%s)', (engine) => {
  const server = suiteServer({ engine });
  const admin = suiteAdmin(server);

  /** A ready video in a new course nobody is enrolled in. */
  async function video(durationSeconds = 60) {
    const { videoIds, courseId } = await watchedCourse(server, [], [durationSeconds]);
    return { videoId: videoIds[0]!, courseId };
  }

  it('stores an .srt as WebVTT, lists, replaces and deletes it', async () => {
    const { videoId } = await video();
    const saved = await upload(admin, videoId, { language: 'pt-br', label: 'Português' }, SRT);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      message: captionMessages.saved,
      caption: { language: 'pt-BR', label: 'Português', cues: 2 },
    });
    const vtt = await admin.get(`/api/videos/${videoId}/captions/pt-BR`);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toContain('text/vtt');
    expect(vtt.body).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nHello class\n\n00:00:04.000 --> 00:00:06.500\nSecond cue\n',
    );

    const replaced = await upload(
      admin,
      videoId,
      { language: 'pt-BR', label: 'Portuguese' },
      'WEBVTT\n\n00:01.000 --> 00:02.000\nOnly one\n',
    );
    expect(replaced.body.caption).toMatchObject({ language: 'pt-BR', label: 'Portuguese', cues: 1 });
    await upload(admin, videoId, { language: 'en', label: 'English' }, SRT);
    const list = await admin.get(`/api/admin/videos/${videoId}/captions`);
    expect(list.body.captions.map((c: { language: string }) => c.language)).toEqual(['en', 'pt-BR']);

    expect((await admin.request('DELETE', `/api/admin/videos/${videoId}/captions/pt-BR`)).status).toBe(200);
    expect((await admin.request('DELETE', `/api/admin/videos/${videoId}/captions/pt-BR`)).status).toBe(404);
    expect((await admin.get(`/api/videos/${videoId}/captions/pt-BR`)).status).toBe(404);
  });

  it('refuses bad files naming the line, cues past the end, big files and bad fields', async () => {
    const { videoId } = await video(5);
    const bad = await upload(
      admin,
      videoId,
      { language: 'en', label: 'English' },
      '1\n00:00:01,000 --> 00:00:0x\nHi\n',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Line 2: expected a cue timing/);
    const late = await upload(admin, videoId, { language: 'en', label: 'English' }, SRT);
    expect(late.status).toBe(400);
    expect(late.body.message).toContain('Line 6: the cue ends at 00:00:06.500, after the video ends');
    const big = await upload(
      admin,
      videoId,
      { language: 'en', label: 'English' },
      'x'.repeat(MAX_CAPTION_BYTES + 1),
    );
    expect(big.status).toBe(413);
    expect((await upload(admin, videoId, { language: 'english!', label: 'E' }, SRT)).body.message).toBe(
      captionMessages.languageInvalid,
    );
    expect((await upload(admin, videoId, { language: 'en', label: 'E' })).body.message).toBe(
      captionMessages.fileMissing,
    );
    expect((await upload(admin, 'nope', { language: 'en', label: 'E' }, SRT)).status).toBe(404);
    expect((await admin.get(`/api/admin/videos/${videoId}/captions`)).body.captions).toEqual([]);
  });

  it('gives students the captions only with access to the video', async () => {
    const { videoId, courseId } = await video();
    await upload(admin, videoId, { language: 'en', label: 'English' }, SRT);
    const { client, student } = await server.studentClient();
    expect((await client.get(`/api/videos/${videoId}/captions`)).status).toBe(403);
    expect((await client.get(`/api/videos/${videoId}/captions/en`)).status).toBe(403);
    await server.ctx.db.insert(enrollments).values({
      courseId,
      studentId: student.id,
      accessExpiration: new Date(server.clock.now().getTime() + 86_400_000),
    });
    expect((await client.get(`/api/videos/${videoId}/captions/en`)).status).toBe(403);
    await server.ctx.db.insert(videoAccess).values({ videoId, studentId: student.id });
    const list = await client.get(`/api/videos/${videoId}/captions`);
    expect(list.body.captions).toEqual([
      expect.objectContaining({ language: 'en', label: 'English', cues: 2 }),
    ]);
    const file = await client.get(`/api/videos/${videoId}/captions/en`);
    expect(file.status).toBe(200);
    expect(file.body).toContain('Hello class');
    expect((await upload(client, videoId, { language: 'en', label: 'E' }, SRT)).status).toBe(403);
  });
});
