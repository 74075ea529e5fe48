import { createDecipheriv, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases';
import { decodeHls, makeClip, MediaTestServer, uploadVideo } from '../../../test/support/media-kit';
import { runCli, startCli } from '../../../test/support/processes';
import type { TestClient } from '../../../test/support/http-client';
import { OPEN_TIME } from '../../../test/support/test-server';
import { videoKeys, videos } from '../db/schema';
import { LINK_SECONDS } from './delivery/tokens';

const run = promisify(execFile);
const VIDEOS = 6;

/** A separate CLI process needs a database it can share with the running server: PostgreSQL. */
describe.skipIf(!testEngines().includes('postgres'))('npm run cli -- media:rekey (postgres)', () => {
  let media: MediaTestServer;
  let viewer: TestClient;
  let clip: string;
  const ids: string[] = [];
  const urls: string[] = [];
  let cliEnv: Record<string, string>;
  let courseId: string | undefined;

  /** Packages the video the way Lectern did before key rotation: ffmpeg, one key, `URI="key"`. */
  async function makeSingleKey(videoId: string): Promise<void> {
    const dir = path.join(media.mediaDir, 'videos', videoId, 'v180');
    for (const f of await readdir(dir))
      if (f.endsWith('.ts') || f.endsWith('.m3u8')) await rm(path.join(dir, f));
    const key = randomBytes(16);
    const tmp = await mkdtemp(path.join(tmpdir(), 'lectern-legacy-'));
    await writeFile(path.join(tmp, 'k'), key);
    await writeFile(path.join(tmp, 'keyinfo'), `key\n${path.join(tmp, 'k')}\n`);
    await run('ffmpeg', [
      '-v', 'error', '-i', clip, '-c', 'copy', '-f', 'hls', '-hls_time', '6', '-hls_playlist_type', 'vod',
      '-hls_segment_filename', path.join(dir, 'seg_%05d.ts'), '-hls_key_info_file', path.join(tmp, 'keyinfo'),
      path.join(dir, 'index.m3u8'),
    ]); // prettier-ignore
    await rm(tmp, { recursive: true });
    const db = media.server.ctx.db;
    await db.delete(videoKeys).where(eq(videoKeys.videoId, videoId));
    await db
      .update(videos)
      .set({ hlsKey: key.toString('hex'), updatedAt: new Date() })
      .where(eq(videos.id, videoId));
  }

  const singleKeyCount = async () =>
    (await media.server.ctx.db.select({ id: videos.id }).from(videos).where(isNotNull(videos.hlsKey))).length;

  async function childPlaylist(url: string) {
    const master = await viewer.get(url);
    const child = new URL(
      master.body.split('\n').find((l: string) => l && !l.startsWith('#')),
      `${media.server.url}${url}`,
    );
    return { child, text: (await viewer.get(child.pathname + child.search)).body as string };
  }

  /** ffmpeg plays every video, as a fresh viewer (ffmpeg fetches keys far faster than the key rate limit allows a player). */
  async function playsAll() {
    const { client, student } = await media.server.studentClient();
    for (const id of ids) await media.giveAccess(student.id, id, { courseId });
    for (const url of urls) {
      const decoded = await decodeHls(`${media.server.url}${url}`, client.token);
      expect(decoded.frames, url).toBeGreaterThanOrEqual(345);
    }
  }

  beforeAll(async () => {
    media = await MediaTestServer.start({ engine: 'postgres', env: { KEY_ROTATION_SECONDS: '6' } });
    const admin = (await media.server.adminClient()).client;
    clip = await makeClip({ seconds: 14 });
    const s = await media.server.studentClient();
    viewer = s.client;
    for (let i = 0; i < VIDEOS; i++) {
      const { videoId, body } = await uploadVideo(admin, clip, `old-${i}.mp4`);
      expect((await media.settled(videoId)).status).toBe('ready');
      courseId = await media.giveAccess(s.student.id, videoId, courseId ? { courseId } : {});
      ids.push(videoId);
      urls.push(body.url);
    }
    for (const id of ids) await makeSingleKey(id);
    cliEnv = {
      DATA_DIR: media.server.dataDir,
      DATABASE_URL: media.server.ctx.config.databaseUrl!,
      KEY_ROTATION_SECONDS: '6',
    };
  }, 120_000);
  afterAll(() => media?.close());

  it('re-keys every single-key video, killed midway and run again, playing throughout', async () => {
    await playsAll(); // the single-key videos play as they are (their key serves as period 0)
    const before = await childPlaylist(urls[0]!);
    expect(before.text.match(/#EXT-X-KEY/g)).toHaveLength(1);

    const first = startCli(['media:rekey'], cliEnv);
    for (let i = 0; i < 600 && !first.output.text.includes('re-keyed'); i++)
      await new Promise((r) => setTimeout(r, 25));
    first.child.kill('SIGKILL');
    await first.exited;
    const left = await singleKeyCount();
    expect(left, first.output.text).toBeGreaterThan(0);
    expect(left).toBeLessThan(VIDEOS);
    await playsAll();

    const second = await runCli(['media:rekey'], cliEnv);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain(`${left} video${left === 1 ? '' : 's'} to re-key`);
    expect(await singleKeyCount()).toBe(0);
    await playsAll();
    for (const url of urls) {
      const keys = new Set((await childPlaylist(url)).text.match(/URI="[^"]+"/g));
      expect(keys.size, url).toBeGreaterThanOrEqual(3);
    }
    expect((await runCli(['media:rekey'], cliEnv)).stdout).toContain('0 videos to re-key');

    // A player still holding the old playlist keeps getting its key and bytes: plain MPEG-TS once decrypted.
    const key = Buffer.from(
      await (
        await fetch(new URL(/URI="([^"]+)"/.exec(before.text)![1]!, media.server.url), {
          headers: { cookie: `token=${viewer.token}` },
        })
      ).arrayBuffer(),
    );
    const segments = before.text.split('\n').filter((l) => l && !l.startsWith('#'));
    for (const [sequence, segment] of segments.entries()) {
      const res = await fetch(new URL(segment, before.child), {
        headers: { cookie: `token=${viewer.token}` },
      });
      expect(res.status).toBe(200);
      const iv = Buffer.alloc(16);
      iv.writeUInt32BE(sequence, 12);
      const decipher = createDecipheriv('aes-128-cbc', key, iv);
      const plain = Buffer.concat([decipher.update(Buffer.from(await res.arrayBuffer())), decipher.final()]);
      expect(
        [0, 188, 376].every((i) => plain[i] === 0x47),
        segment,
      ).toBe(true);
    }

    // Once old playlists' links have expired, the replaced files go; the video still plays.
    const dir = path.join(media.mediaDir, 'videos', ids[0]!, 'v180');
    expect(await readdir(dir)).toContain('seg_00001.ts');
    // (The CLI queued the job on the real clock.)
    media.server.clock.set(new Date(Date.now() + (LINK_SECONDS + 60) * 1000));
    media.runner.wake();
    for (let i = 0; i < 200 && (await readdir(dir)).includes('seg_00001.ts'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const files = await readdir(dir);
    expect(files).not.toContain('seg_00001.ts');
    expect(files).toContain('seg_00001_k.ts');
    expect(files).toContain('seg_00000.ts'); // period 0 kept its key and its file
    media.server.clock.set(OPEN_TIME);
    await playsAll();
  }, 180_000);
});
