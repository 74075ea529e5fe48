import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mediaMessages } from '../../contract/media';
import { jobs, videos } from '../db/schema';
import { testEngines } from '../../../test/support/databases';
import { mediaMatrix } from '../../../test/support/stores';
import { finalize, makeClip, suiteMedia, uploadAll } from '../../../test/support/media-kit';

describe.each(mediaMatrix(testEngines()))('deleting a video’s media (%s, %s store)', (engine, store) => {
  const { media, admin } = suiteMedia({ engine, store });

  const filesOf = async (videoId: string) => (await media.mediaFiles()).filter((f) => f.includes(videoId));

  it('removes every file of the video and leaves it unplayable; only admins may', async () => {
    const { videoId, body } = await media.uploadReady(
      admin,
      { seconds: 2, width: 640, height: 400 },
      'to-delete.mp4',
    );
    expect((await admin.get(body.url)).status).toBe(200);
    expect((await filesOf(videoId)).length).toBeGreaterThan(3);

    const { client: student } = await media.server.studentClient();
    expect((await student.request('DELETE', body.deleteUrl)).status).toBe(403);
    expect((await media.server.client().request('DELETE', body.deleteUrl)).status).toBe(401);

    const res = await admin.request('DELETE', body.deleteUrl);
    expect(res.status).toBe(200);
    expect(await filesOf(videoId)).toEqual([]);
    const again = await admin.get(body.url);
    expect(again.status).toBe(409);
    const [row] = await media.server.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({
      status: 'failed',
      failureReason: mediaMessages.mediaDeleted,
      renditions: [],
    });
    // Nothing comes back once the queue has settled (the ladder was cancelled too).
    await media.runner.idle();
    expect(await filesOf(videoId)).toEqual([]);
  });

  it('answers 404 for a video that does not exist', async () => {
    expect((await admin.request('DELETE', `/stream/videos/${randomUUID()}`)).status).toBe(404);
    expect((await admin.request('DELETE', '/stream/videos/not-a-uuid')).status).toBe(404);
  });

  it('cancels packaging in progress cleanly: no files appear afterwards and the job is cancelled', async () => {
    // A transcode (not H.264) takes long enough to be caught in the act.
    const file = await makeClip({ seconds: 20, width: 640, height: 360, codec: 'mpeg4', format: 'matroska' });
    const bytes = await readFile(file);
    await uploadAll(admin, 'slow.mkv', bytes, 1024 * 1024);
    const done = await finalize(admin, 'slow.mkv');
    expect(done.status).toBe(200);
    const videoId = done.body.deleteUrl.split('/').at(-1);
    const jobsOf = async () =>
      (await media.server.ctx.db.select().from(jobs)).filter(
        (j) => (j.payload as { videoId?: string }).videoId === videoId,
      );
    // Delete while the package job is running (the runner was woken by the finalize).
    for (let i = 0; i < 200 && (await jobsOf())[0]?.status !== 'running'; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await jobsOf()).map((j) => j.status)).toEqual(['running']);
    expect((await admin.request('DELETE', done.body.deleteUrl)).status).toBe(200);
    await media.runner.idle();
    expect(await filesOf(videoId)).toEqual([]);
    expect((await jobsOf()).map((j) => j.status)).toEqual(['cancelled']);
    const [row] = await media.server.ctx.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row!.status).toBe('failed');
  });
});
