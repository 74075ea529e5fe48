import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaMessages } from '../../contract/media';
import { traceRunMessages } from '../../contract/trace-runs';
import { insertFinalizedVideo } from '../../../test/support/course-fixtures';
import type { TestClient } from '../../../test/support/http-client';
import { finalize, makeClip, MediaTestServer, uploadAll } from '../../../test/support/media-kit';
import { testStores } from '../../../test/support/stores';
import { suiteTempDirs } from '../../../test/support/temp-dirs';

const run = promisify(execFile);

/** An HLS playlist of `count` 3-second entries, each `uri`: 120 s, long enough to be traced. */
const hlsPlaylist = (uri: string, count = 40) =>
  `#EXTM3U\n#EXT-X-TARGETDURATION:3\n${`#EXTINF:3,\n${uri}\n`.repeat(count)}#EXT-X-ENDLIST\n`;

/**
 * An uploaded "video" may be a playlist or a script naming other files or hosts; ffprobe and ffmpeg
 * would open them (reading the server's files into a video, or fetching any URL from inside the
 * network). Uploads and leaked copies are read as plain containers only, from their own file.
 */
describe.each(testStores())('a crafted file uploaded as a video (pglite, %s store)', (store) => {
  const tempDir = suiteTempDirs();
  let media: MediaTestServer;
  let admin: TestClient;
  let segment: string;
  let bait: Server;
  let baitUrl: string;
  const fetched: string[] = [];

  beforeAll(async () => {
    media = await MediaTestServer.start({ engine: 'pglite', store, env: { OPEN_HOURS: 'always' } });
    admin = (await media.server.adminClient()).client;
    // A real MPEG-TS segment: what the playlists point at, on disk and over HTTP.
    segment = path.join(await tempDir('lectern-crafted-'), 'segment.ts');
    await run('ffmpeg', [
      '-v',
      'error',
      '-i',
      await makeClip({ seconds: 3 }),
      '-c',
      'copy',
      '-f',
      'mpegts',
      segment,
    ]);
    const bytes = await readFile(segment);
    bait = createServer((req, res) => {
      fetched.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'video/mp2t' }).end(bytes);
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => bait?.close(resolve));
    await media?.close();
  });

  /** The files a crafted upload may name: a file of the server's, and a host it can reach. */
  const crafted = () => ({
    'an HLS playlist of a local file': hlsPlaylist(`file://${segment}`),
    'an HLS playlist of a URL': hlsPlaylist(`${baitUrl}/hls.ts`),
    'a concat script of a URL': `ffconcat version 1.0\nfile '${baitUrl}/concat.ts'\nduration 120\n`,
    'a concat script of a local file': `ffconcat version 1.0\nfile '${segment}'\nduration 120\n`,
  });

  it('is refused at finalize as not a video, and nothing it names is read', async () => {
    for (const [name, text] of Object.entries(crafted())) {
      const fileName = `${name.replaceAll(' ', '-')}.mp4`;
      await uploadAll(admin, fileName, Buffer.from(text), 64 * 1024);
      const res = await finalize(admin, fileName);
      expect([name, res.status, res.body.message]).toEqual([name, 422, mediaMessages.notAVideo]);
    }
    expect(fetched).toEqual([]);
  });

  it('is refused on the trace screen as not a video, and nothing it names is read', async () => {
    // Something to trace against, so the upload gets as far as ffprobe.
    await insertFinalizedVideo(media.server, {
      status: 'ready',
      forensicSecret: randomBytes(32).toString('hex'),
    });
    for (const [name, text] of Object.entries(crafted())) {
      const form = new FormData();
      form.append('file', new Blob([text]), 'leak.mp4');
      const res = await admin.request('POST', '/api/admin/trace-runs', { body: form });
      expect([name, res.status, res.body.message]).toEqual([name, 400, traceRunMessages.notAVideo]);
    }
    expect(fetched).toEqual([]);
  });

  it('still reads real videos: MP4 and Matroska uploads, an MPEG-TS leaked copy', async () => {
    for (const format of ['mp4', 'matroska'] as const) {
      const clip = await readFile(await makeClip({ seconds: 3, format }));
      const fileName = `real.${format}`;
      await uploadAll(admin, fileName, clip, 1024 * 1024);
      expect((await finalize(admin, fileName)).status).toBe(200);
    }
    // Read as a video: refused only for its length.
    const form = new FormData();
    form.append('file', new Blob([await readFile(segment)]), 'leak.ts');
    const res = await admin.request('POST', '/api/admin/trace-runs', { body: form });
    expect([res.status, res.body.message]).toEqual([400, traceRunMessages.tooShort(3, 102)]);
  });
});
