import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases';
import { TestClient } from '../../../test/support/http-client';
import { OFFLOAD_PREFIX } from './delivery/routes';
import { decodeHls, makeClip, MediaTestServer, uploadVideo } from '../../../test/support/media-kit';
import { startNginx } from '../../../test/support/nginx';

describe.each(testEngines())('SEGMENT_OFFLOAD=nginx behind a real nginx (%s)', (engine) => {
  let media: MediaTestServer;
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  let video: { videoId: string; url: string };

  beforeAll(async () => {
    media = await MediaTestServer.start({ engine, env: { SEGMENT_OFFLOAD: 'nginx' } });
    const admin = (await media.server.adminClient()).client;
    const uploaded = await uploadVideo(admin, await makeClip({ seconds: 3 }), 'offload.mp4');
    video = { videoId: uploaded.videoId, url: uploaded.body.url };
    expect((await media.settled(video.videoId)).status).toBe('ready');
    nginx = await startNginx({
      kind: 'offload',
      videosDir: path.join(media.mediaDir, 'videos'),
      lectern: new URL(media.server.url).host,
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    await media?.close();
  });

  async function viewerThroughNginx() {
    const { client, student: s } = await media.server.studentClient();
    await media.giveAccess(s.id, video.videoId);
    // The same session, but every request goes to nginx.
    const viaNginx = new TestClient(nginx.url);
    viaNginx.cookies.set('token', client.token!);
    const master = await viaNginx.get(video.url);
    expect(master.status).toBe(200);
    const child = new URL(
      master.body.split('\n').find((l: string) => l && !l.startsWith('#')),
      `${nginx.url}${video.url}`,
    );
    const playlist = await viaNginx.get(child.pathname + child.search);
    const segment = new URL(
      playlist.body.split('\n').find((l: string) => l && !l.startsWith('#')),
      child,
    );
    return { viaNginx, segment, token: client.token! };
  }

  it('plays end to end through nginx: ffmpeg decodes the whole video', async () => {
    const { token } = await viewerThroughNginx();
    const decoded = await decodeHls(`${nginx.url}${video.url}`, token);
    expect(decoded.frames).toBeGreaterThanOrEqual(74);
  });

  it('lets Lectern authorize each segment and nginx send the bytes (with ranges)', async () => {
    const { segment } = await viewerThroughNginx();
    const file = path.join(
      media.mediaDir,
      'videos',
      video.videoId,
      segment.pathname.split('/').slice(-2).join('/'),
    );
    const onDisk = await readFile(file);

    const res = await fetch(segment);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp2t');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await res.arrayBuffer()).equals(onDisk)).toBe(true);

    const part = await fetch(segment, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(onDisk.subarray(10, 20))).toBe(true);

    // Lectern itself answers with the redirect and no body.
    const direct = await fetch(new URL(segment.pathname + segment.search, media.server.url));
    expect(direct.headers.get('x-accel-redirect')).toBe(
      `${OFFLOAD_PREFIX}/${segment.pathname.split('/').slice(-3).join('/')}`,
    );
    expect((await direct.arrayBuffer()).byteLength).toBe(0);
  });

  it('still refuses a tampered token, and the internal location is not reachable from outside', async () => {
    const { segment } = await viewerThroughNginx();
    const tampered = new URL(segment);
    tampered.searchParams.set('t', `${tampered.searchParams.get('t')!.slice(0, -2)}xx`);
    const refused = await fetch(tampered);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBeTruthy();
    const internal = await fetch(
      `${nginx.url}${OFFLOAD_PREFIX}/${segment.pathname.split('/').slice(-3).join('/')}`,
    );
    await internal.arrayBuffer();
    expect(internal.status).toBe(404);
  });
});
