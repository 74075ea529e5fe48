import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { liveIngests, videos } from '../db/schema';
import { createMediaTools } from '../storage/ffmpeg';
import { decryptSegment } from '../media/packaging/segment-keys';
import { get, playlistUris } from '../../../test/support/delivery';
import {
  bothRungs,
  classEnded,
  encode,
  liveEncoder,
  liveSuiteServer,
  nginxTest,
  scheduledClass,
  startNginxMain,
  until,
} from '../../../test/support/live-encoder';
import { freePort } from '../../../test/support/processes';
import { selfSignedCert } from '../../../test/support/tls';
import { suiteAdmin } from '../../../test/support/test-server';
import { LiveIngest } from './ingest';
import { nginxRtmp, rtmpConfigOptions } from './rtmp';

const METRICS_TOKEN = 'metrics-token-for-the-live-tests-0123';

/** The value of a series (name with its labels) in Prometheus text. */
const sample = (text: string, series: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${series} `))
      ?.slice(series.length + 1) ?? NaN,
  );

/** nginx's rtmp listener (TCP), on a port the system just gave out free. */
const RTMP_PORT = await freePort();

describe('live ingest over RTMP through nginx', () => {
  const server = liveSuiteServer({
    LIVE_RTMP_PULL: `rtmp://127.0.0.1:${RTMP_PORT}/live`,
    // The grace the reconnect below must land in: a new ffmpeg's start, nginx's on_publish call and
    // the ingest's next steps took more than 6 s on a loaded machine (two clean-clone runs ended the
    // class before the encoder came back); the class still ends this long after the last encoder.
    LIVE_RECONNECT_SECONDS: '20',
    METRICS_TOKEN: METRICS_TOKEN,
  });
  const admin = suiteAdmin(server);
  const stops: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  const rtmpBlocks = (certificate?: { certPath: string; keyPath: string }) =>
    nginxRtmp(
      rtmpConfigOptions(server.ctx.config, {
        lectern: new URL(server.url).host,
        listen: `127.0.0.1:${RTMP_PORT}`,
        ...(certificate && { 'rtmps-cert': certificate.certPath, 'rtmps-key': certificate.keyPath }),
      }),
    );

  it('prints an rtmp block and an RTMPS stream block that nginx -t accepts, with no key in a URL', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'lectern-rtmps-'));
    stops.push(() => rm(dir, { recursive: true, force: true }));
    const blocks = rtmpBlocks(selfSignedCert(dir));
    expect(blocks).toContain(`on_publish ${server.url}/api/live/rtmp/publish;`);
    expect(blocks).toContain('notify_method post;');
    expect(blocks).toContain('deny play all;');
    expect(blocks).toContain('listen 1936 ssl;');
    // The stream block needs Debian's libnginx-mod-stream; without it only the rtmp block is checked.
    const stream = existsSync('/usr/lib/nginx/modules/ngx_stream_module.so');
    const checked = await nginxTest(stream ? blocks : rtmpBlocks(), stream ? ['rtmp', 'stream'] : ['rtmp']);
    expect(checked.output).toContain('syntax is ok');
    expect(checked.code).toBe(0);
  });

  it('refuses a wrong key before any media, packages the right one, continues a reconnect and ends after the grace', async () => {
    const nginx = await startNginxMain(rtmpBlocks(), RTMP_PORT);
    stops.push(() => nginx.stop());
    const { student, live } = await scheduledClass(server, admin, 'Live over RTMP');
    const key = live.ingest.streamKey;
    const rtmp = `rtmp://127.0.0.1:${RTMP_PORT}/live`;

    const ingest = new LiveIngest(server.ctx, createMediaTools(server.ctx.config), 250);
    stops.push(() => ingest.stop());
    ingest.start();
    await until('the class ingest', async () => ingest.active === 1);

    // A wrong key: nginx asks Lectern, gets a 403 and drops the encoder; nothing is published.
    expect(await encode(`${rtmp}/${'0'.repeat(32)}`, 3)).not.toBe(0);
    // Nor does the class's id (the name nginx gives an accepted stream) open it.
    expect(await encode(`${rtmp}/${live._id}`, 3)).not.toBe(0);
    const [before] = await server.ctx.db.select().from(videos).where(eq(videos.id, live.videoId));
    expect(before!.renditions).toEqual([]);
    const [ingestRow] = await server.ctx.db.select().from(liveIngests);
    expect(ingestRow).toMatchObject({ holder: ingest.leases.holder, rtmpSince: null });

    // The right key: the encoder streams on until the class is seen live (a fixed 8 s had left before
    // a loaded machine's ingest took nginx's stream in one clean-clone run), as an instructor's does.
    const publishing = liveEncoder(`${rtmp}/${key}`, 'testsrc2=size=640x480:rate=15', 120);
    const published = new Promise<number | null>((resolve) => publishing.on('close', resolve));
    stops.push(async () => {
      publishing.kill('SIGKILL');
      await published;
    });
    const master = `${server.url}/stream/videos/${live.videoId}/master.m3u8`;
    const masterText = await bothRungs(master, student.token, 60_000);
    const child = playlistUris(masterText, master)[0]!;
    const first = await (await get(child, student.token)).text();
    expect(first).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    const keyUri = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(first)![1]!;
    const aesKey = Buffer.from(await (await get(new URL(keyUri, child), student.token)).arrayBuffer());
    const segment = Buffer.from(
      await (await get(playlistUris(first, child)[0]!, student.token)).arrayBuffer(),
    );
    const plain = decryptSegment(segment, aesKey, 0);
    expect([plain[0], plain[188]]).toEqual([0x47, 0x47]);

    // The metrics while live: the class, its viewer (the student reloading the playlist), the
    // ingest's bitrate and its segment lag.
    const metrics = await until('the live metrics', async () => {
      await get(child, student.token);
      const res = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const text = await res.text();
      return sample(text, 'lectern_live_viewers') >= 1 && text;
    });
    expect(sample(metrics, 'lectern_live_classes_live')).toBe(1);
    expect(
      sample(metrics, `lectern_live_ingest_bitrate_bits_per_second{class="${live._id}"}`),
    ).toBeGreaterThan(10_000);
    const lag = sample(metrics, `lectern_live_segment_lag_seconds{class="${live._id}"}`);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(30);
    // nginx took the encoder and kept it (a refused publish ends ffmpeg at once); it stops now.
    expect(publishing.exitCode).toBeNull();
    publishing.kill('SIGINT');
    await published;

    // on_publish_done: the class's RTMP encoder is marked gone.
    await until('on_publish_done', async () => {
      const [row] = await server.ctx.db.select().from(liveIngests).where(eq(liveIngests.classId, live._id));
      return row?.rtmpSince === null;
    });
    const beforeReconnect = playlistUris(await (await get(child, student.token)).text(), child).length;
    // The encoder comes back within the grace: the same playlists continue after a discontinuity.
    // It streams on until they do, as an instructor's encoder streams on for the class: the ingest
    // switches back from its SRT listener to nginx's stream on its next steps, seconds on a loaded
    // machine (a 5 s encoder had left by then in one run, a 12 s one in another), and is stopped then.
    const reconnected = liveEncoder(`${rtmp}/${key}`, 'testsrc2=size=640x480:rate=15', 90);
    const reconnectedExit = new Promise((resolve) => reconnected.on('close', resolve));
    let continued: string;
    try {
      continued = await until(
        'the reconnected segments',
        async () => {
          const text = await (await get(child, student.token)).text();
          return (
            text.includes('#EXT-X-DISCONTINUITY') &&
            playlistUris(text, child).length > beforeReconnect &&
            text
          );
        },
        60_000,
      );
      // nginx took the encoder back and kept it (a refused publish ends ffmpeg at once).
      expect(reconnected.exitCode).toBeNull();
    } finally {
      reconnected.kill('SIGINT');
      await reconnectedExit;
    }
    expect(continued).not.toContain('#EXT-X-ENDLIST');

    await classEnded(server, live._id, 60_000);
    expect(await (await get(child, student.token)).text()).toContain('#EXT-X-ENDLIST');
    // nginx logged no stream key (its error log at notice; no rtmp access log).
    expect(await readFile(nginx.errorLog, 'utf8')).not.toContain(key);
  }, 240_000);
});
