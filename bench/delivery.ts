/**
 * Segment delivery benchmark (issue 11), all on this machine in one run, with wrk (Debian) over the
 * same segment files of a 60 s 720p video: req/s and MB/s at 16 and 128 connections for
 * - nginx serving the files statically (the limit) and a plain Node `http` + `fs.createReadStream`;
 * - SEGMENT_DELIVERY=node (Lectern's fast path), =nginx (secure_link, the generated site), =s3
 *   (the playlist's presigned URLs) against a plain presigned GET of the same objects;
 * and the latency of child playlist + key requests for 300 viewers starting within 10 s.
 *
 *   npm run bench -- delivery      BENCH_SECONDS=5 (per wrk run)   BENCH_DATABASE_URL=postgres://…
 *
 * The s3 rows need the test S3 server (eval "$(../shared/tools/s3-server/start)").
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { nginxLinkSecret, nodeSegmentUrls } from '../src/server/media/delivery/segment-urls';
import { playbackTokens } from '../src/server/media/delivery/tokens';
import { mediaKeys } from '../src/server/storage';
import { MediaTestServer, uploadVideo } from '../test/support/media-kit';
import { startNginx } from '../test/support/nginx';
import { startServerProcess } from '../test/support/processes';
import { benchSource, plainServer, portOf } from './streaming';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const VIEWERS = 300;
const MB = 1e6;
const run$ = promisify(execFile);

interface Target {
  name: string;
  /** scheme://host:port */
  base: string;
  paths: string[];
  headers?: string[];
}

interface Measured {
  rps: number;
  mbps: number;
  errors: number;
}

/** One wrk run over `paths` (round robin, by a Lua script); answers req/s, MB/s and non-2xx count. */
async function wrk(target: Target, connections: number, dir: string): Promise<Measured> {
  const script = path.join(dir, 'paths.lua');
  await writeFile(
    script,
    `local paths = {${target.paths.map((p) => JSON.stringify(p)).join(',')}}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
done = function(summary, latency, requests)
  io.write(string.format("JSON {\\"requests\\":%d,\\"bytes\\":%d,\\"non2xx\\":%d,\\"us\\":%d}\\n",
    summary.requests, summary.bytes, summary.errors.status + summary.errors.read + summary.errors.connect, summary.duration))
end
`,
  );
  const { stdout } = await run$(
    'wrk',
    [
      '-t',
      '2',
      '-c',
      String(connections),
      '-d',
      `${SECONDS}s`,
      '-s',
      script,
      ...(target.headers ?? []).flatMap((h) => ['-H', h]),
      target.base,
    ],
    { maxBuffer: 1 << 20 },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('JSON '));
  if (!line) throw new Error(`wrk printed no summary: ${stdout}`);
  const r = JSON.parse(line.slice(5)) as { requests: number; bytes: number; non2xx: number; us: number };
  const seconds = r.us / 1e6;
  return { rps: r.requests / seconds, mbps: r.bytes / MB / seconds, errors: r.non2xx };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A server with the video packaged, its job runner stopped (no background encoding during load). */
async function serverWith(source: string, store: 'local' | 's3', mode: 'nginx' | 's3') {
  const media = await MediaTestServer.start({
    engine: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
    store,
    now: new Date().toISOString(),
    env: { SEGMENT_DELIVERY: mode, OPEN_HOURS: 'always', LOG_LEVEL: 'warn' },
  });
  const admin = (await media.server.adminClient()).client;
  const { videoId, body } = await uploadVideo(admin, source, 'lecture-720p.mp4');
  if ((await media.settled(videoId, 120_000)).status !== 'ready') throw new Error('packaging failed');
  await media.runner.stop();
  return { media, videoId, url: body.url as string };
}

/** A signed-in student with access: the session and the child playlist's segment and key URLs. */
async function viewer(
  media: MediaTestServer,
  origin: string,
  videoId: string,
  url: string,
  courseId?: string,
) {
  const { client, student } = await media.server.studentClient();
  const course = await media.giveAccess(student.id, videoId, courseId ? { courseId } : {});
  const session = client.token!;
  const cookie = { headers: { cookie: `token=${session}` } };
  const master = await (await fetch(`${origin}${url}`, cookie)).text();
  const child = new URL(
    master.split('\n').find((l) => l && !l.startsWith('#'))!,
    `${origin}${url}`,
  );
  const playlist = await (await fetch(child, cookie)).text();
  const segments = playlist
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => new URL(l, child));
  const key = new URL(/URI="([^"]+)"/.exec(playlist)![1]!, origin);
  return { session, course, child, segments, key };
}

export async function run(): Promise<boolean> {
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const work = await mkdtemp(path.join(tmpdir(), 'lectern-delivery-'));
  const stops: (() => Promise<unknown>)[] = [];
  const checks: { name: string; value: string; pass: boolean }[] = [];
  try {
    const source = await benchSource();
    // Local store: node and nginx modes, nginx static and plain Node over the very same files.
    const local = await serverWith(source, 'local', 'nginx');
    stops.unshift(() => local.media.close());
    const videosDir = path.join(local.media.mediaDir, 'videos');
    const nginxSite = await startNginx({
      kind: 'delivery',
      videosDir,
      lectern: new URL(local.media.server.url).host,
      secret: nginxLinkSecret(local.media.server.ctx.signingKey),
    });
    stops.unshift(() => nginxSite.stop());
    const nginxStatic = await startNginx({ kind: 'static', videosDir });
    stops.unshift(() => nginxStatic.stop());
    const plain = await plainServer(videosDir);
    stops.unshift(async () => (plain.closeAllConnections(), plain.close()));

    const viaNginx = await viewer(local.media, nginxSite.url, local.videoId, local.url);
    // node mode's links, signed exactly as its playlists sign them (this server runs nginx mode).
    const files = viaNginx.segments.map((s) => s.pathname.split('/').at(-1)!);
    const rendition = viaNginx.segments[0]!.pathname.split('/').at(-2)!;
    const nodeLinks = await nodeSegmentUrls(playbackTokens(local.media.server.ctx.signingKey)).uris({
      store: local.media.store,
      videoId: local.videoId,
      rendition,
      files,
      session: viaNginx.session,
      nowMs: local.media.server.clock.now().getTime(),
    });
    const prefix = `/stream/videos/${local.videoId}/${rendition}/`;
    const plainPaths = files.map((f) => prefix + f);
    const cookie = [`Cookie: token=${viaNginx.session}`];
    const targets: Target[] = [
      { name: 'nginx static (the limit)', base: nginxStatic.url, paths: plainPaths },
      { name: 'plain Node http + fs', base: `http://127.0.0.1:${portOf(plain)}`, paths: plainPaths },
      {
        name: 'SEGMENT_DELIVERY=node',
        base: local.media.server.url,
        paths: nodeLinks.map((l) => prefix + l),
        headers: cookie,
      },
      {
        name: 'SEGMENT_DELIVERY=nginx',
        base: nginxSite.url,
        paths: viaNginx.segments.map((s) => s.pathname + s.search),
        headers: cookie,
      },
    ];

    // node mode using both cores: WEB_CONCURRENCY=2 over the same data folder and PostgreSQL database
    // (so the same signing key and sessions), its primary running no jobs.
    if (process.env.BENCH_DATABASE_URL) {
      const clustered = await startServerProcess({
        DATA_DIR: local.media.server.dataDir,
        DATABASE_URL: local.media.server.ctx.config.databaseUrl!,
        WEB_CONCURRENCY: '2',
        ROLE: 'web',
        OPEN_HOURS: 'always',
        SEED_DEMO: 'false',
        LOG_FORMAT: 'json',
      });
      stops.unshift(() => clustered.stop());
      targets.push({
        name: 'node, WEB_CONCURRENCY=2',
        base: clustered.url,
        paths: nodeLinks.map((l) => prefix + l),
        headers: cookie,
      });
    } else console.log('BENCH_DATABASE_URL is not set: the WEB_CONCURRENCY=2 row is skipped');

    let s3: Awaited<ReturnType<typeof serverWith>> | undefined;
    if (process.env.S3_ENDPOINT) {
      s3 = await serverWith(source, 's3', 's3');
      stops.unshift(() => s3!.media.close());
      const v = await viewer(s3.media, s3.media.server.url, s3.videoId, s3.url);
      const store = s3.media.store;
      const presigned = await Promise.all(
        v.segments.map(
          async (s) =>
            new URL(
              (await store.presignGet(
                mediaKeys.videoFile(
                  s3!.videoId,
                  s.pathname.split('/').at(-2)!,
                  s.pathname.split('/').at(-1)!,
                ),
                3600,
              ))!,
            ),
        ),
      );
      targets.push(
        {
          name: 'plain presigned GET (S3)',
          base: presigned[0]!.origin,
          paths: presigned.map((u) => u.pathname + u.search),
        },
        {
          name: 'SEGMENT_DELIVERY=s3',
          base: v.segments[0]!.origin,
          paths: v.segments.map((u) => u.pathname + u.search),
        },
      );
    } else console.log('S3_ENDPOINT is not set: the s3 rows are skipped');

    // Interleaved, two rounds, best of each: single runs on a shared 2-core machine swing a lot.
    const measured = new Map<string, Measured>();
    for (let round = 0; round < 2; round++)
      for (const connections of [16, 128])
        for (const target of targets) {
          const r = await wrk(target, connections, work);
          const key = `${target.name}/${connections}`;
          const best = measured.get(key);
          if (!best || r.rps > best.rps) measured.set(key, { ...r, errors: r.errors + (best?.errors ?? 0) });
          else best.errors += r.errors;
        }

    const sizes = await Promise.all(
      plainPaths.slice(0, 5).map(async (p) => (await fetch(nginxStatic.url + p)).arrayBuffer()),
    );
    const mean = sizes.reduce((a, b) => a + b.byteLength, 0) / sizes.length;
    console.log(
      `\nSegment delivery: ${files.length} segments of ~${(mean / MB).toFixed(2)} MB, wrk best of 2 × ${SECONDS} s`,
    );
    const yardstick = (name: string) =>
      name.includes('s3') || name.includes('S3') ? 'plain presigned GET (S3)' : 'nginx static (the limit)';
    console.log(`${''.padEnd(28)}${'16 connections'.padEnd(36)}128 connections`);
    for (const target of targets) {
      const cells = [16, 128].map((c) => {
        const r = measured.get(`${target.name}/${c}`)!;
        const base = measured.get(`${yardstick(target.name)}/${c}`)!;
        return `${r.rps.toFixed(0).padStart(6)} req/s ${r.mbps.toFixed(0).padStart(5)} MB/s ${(r.rps / base.rps).toFixed(2).padStart(5)}x${r.errors ? ` (${r.errors} err)` : ''}`.padEnd(
          36,
        );
      });
      console.log(`  ${target.name.padEnd(26)}${cells.join('')}`);
    }
    const ratio = (name: string, c: number) =>
      measured.get(`${name}/${c}`)!.rps / measured.get(`${yardstick(name)}/${c}`)!.rps;
    for (const c of [16, 128]) {
      const node = Math.max(
        ratio('SEGMENT_DELIVERY=node', c),
        measured.has(`node, WEB_CONCURRENCY=2/${c}`) ? ratio('node, WEB_CONCURRENCY=2', c) : 0,
      );
      checks.push({
        name: `node mode (best of 1 and 2 processes) ≥ 0.6 × nginx static, ${c} conns`,
        value: node.toFixed(2),
        pass: node >= 0.6,
      });
      const ngx = ratio('SEGMENT_DELIVERY=nginx', c);
      checks.push({
        name: `nginx mode ≥ 0.95 × nginx static, ${c} conns`,
        value: ngx.toFixed(2),
        pass: ngx >= 0.95,
      });
      if (s3) {
        const r = ratio('SEGMENT_DELIVERY=s3', c);
        checks.push({
          name: `s3 mode ≥ 0.95 × plain presigned GET, ${c} conns`,
          value: r.toFixed(2),
          pass: r >= 0.95,
        });
      }
      if (targets.some((t) => measured.get(`${t.name}/${c}`)!.errors > 0))
        checks.push({ name: `no failed requests, ${c} conns`, value: 'some failed', pass: false });
    }

    // 300 viewers starting within 10 s: each a child playlist, then its first key (PGlite or PostgreSQL).
    const viewers = [];
    for (let i = 0; i < VIEWERS; i++) {
      const { client, student } = await local.media.server.studentClient();
      await local.media.giveAccess(student.id, local.videoId, { courseId: viaNginx.course });
      viewers.push(client.token!);
    }
    const child = `${local.media.server.url}${viaNginx.child.pathname}`;
    // The token names the file it links to: `v720/index.m3u8`.
    const childPath = viaNginx.child.pathname.split('/').slice(-2).join('/');
    const childLatency: number[] = [];
    const keyLatency: number[] = [];
    const timed = async (url: string, session: string, into: number[]) => {
      const started = performance.now();
      const res = await fetch(url, { headers: { cookie: `token=${session}` } });
      await res.arrayBuffer();
      into.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    };
    const signer = playbackTokens(local.media.server.ctx.signingKey);
    await Promise.all(
      viewers.map(async (session, i) => {
        await new Promise((r) => setTimeout(r, (i / VIEWERS) * 10_000));
        const t = signer.sign(local.videoId, childPath, session, local.media.server.clock.now().getTime());
        await timed(`${child}?t=${t}`, session, childLatency);
        await timed(
          viaNginx.key.toString().replace(nginxSite.url, local.media.server.url),
          session,
          keyLatency,
        );
      }),
    );
    for (const [name, list] of [
      ['child playlist', childLatency],
      ['key', keyLatency],
    ] as const) {
      const sorted = [...list].sort((a, b) => a - b);
      const p99 = percentile(sorted, 99);
      console.log(
        `  ${name.padEnd(16)} p50 ${percentile(sorted, 50).toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  (${VIEWERS} viewers)`,
      );
      checks.push({
        name: `${name} p99 < 20 ms, ${VIEWERS} viewers`,
        value: `${p99.toFixed(1)} ms`,
        pass: p99 < 20,
      });
    }

    console.log('');
    for (const c of checks) console.log(`  ${c.pass ? 'PASS' : 'MISS'}  ${c.name}: ${c.value}`);
    return checks.every((c) => c.pass);
  } finally {
    for (const stop of stops) await stop().catch((e: unknown) => console.error(e));
    await rm(work, { recursive: true, force: true });
  }
}
