/**
 * Storage benchmark (issue 10), side by side in one run on the local S3 server (Ceph RGW):
 * - an upload through Lectern into the bucket (5 MiB chunks, each streamed into one part) against
 *   the same bytes sent by the SDK straight to the bucket (multipart, same part size, one at a time
 *   like the admin's browser), with the RSS growth of the Lectern process;
 * - packaging a 60 s 720p source (finalize -> playable, then the ladder) on S3 and on local disk;
 * - segment GETs through Lectern from S3 against a presigned GET of the same object, at 16 and 128
 *   connections, measured by wrk.
 *
 *   eval "$(../shared/tools/s3-server/start)"; npm run bench -- storage      BENCH_UPLOAD_MIB=1024 BENCH_SECONDS=8
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  CreateMultipartUploadCommand,
  UploadPartCommand,
  CompleteMultipartUploadCommand,
} from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { createAdmin } from '../src/server/accounts/users';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { videos } from '../src/server/db/schema';
import { jobHandlers, jobLanes } from '../src/server/wiring/job-registry';
import { JobRunner } from '../src/server/jobs/runner';
import { createMediaTools } from '../src/server/storage/ffmpeg';
import { ladderFor } from '../src/server/media/packaging/hls';
import { openRuntime } from '../src/server/runtime';
import { createTestDatabase } from '../test/support/databases';
import { createTestBucket, type TestBucket } from '../test/support/stores';
import { benchSource, child, portOf, signIn, uploadInProcess } from './streaming';
import { benchChunk, secondsUntilPlayable, type UploadClientOptions } from './upload-client';

const run$ = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const UPLOAD_BYTES = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * 1024 * 1024;
const CHUNK = 5 * 1024 * 1024;
const MB = 1e6;

interface Lectern {
  base: string;
  port: number;
  cookie: string;
  db: Awaited<ReturnType<typeof openRuntime>>['ctx']['db'];
  close(): Promise<void>;
}

/** Lectern in this process on its own data folder and in-memory database, on `store`. */
export async function startLectern(
  work: string,
  name: string,
  env: Record<string, string>,
): Promise<Lectern> {
  const database = await createTestDatabase('pglite');
  const config = loadConfig({
    DATA_DIR: path.join(work, name),
    DATABASE_URL: database.url,
    OPEN_HOURS: 'always',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const runtime = await openRuntime(config);
  const { ctx } = runtime;
  const runner = new JobRunner(ctx, jobHandlers(ctx), { ...jobLanes, pollMs: 200 });
  await runner.start();
  const app = await buildApp(ctx, { wakeJobs: () => runner.wake() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${portOf(app.server)}`;
  await createAdmin(ctx.db, { username: 'benchadmin', email: 'b@example.test', password: 'Bench@Admin1' });
  const cookie = await signIn(base, '/api/admin/login', 'benchadmin', 'Bench@Admin1');
  return {
    base,
    port: portOf(app.server),
    cookie,
    db: ctx.db,
    async close() {
      await app.close();
      await runner.stop();
      await runtime.close();
      await database.drop();
    },
  };
}

/** The SDK's own multipart upload of the benchmark's bytes: the yardstick for Lectern's upload. */
async function sdkUpload(bucket: TestBucket): Promise<number> {
  const chunk = benchChunk(CHUNK);
  const started = performance.now();
  const { UploadId } = await bucket.client.send(
    new CreateMultipartUploadCommand({ Bucket: bucket.name, Key: 'bench/sdk-direct' }),
  );
  const parts: { PartNumber: number; ETag: string }[] = [];
  for (let at = 0, n = 1; at < UPLOAD_BYTES; at += CHUNK, n++) {
    const body = chunk.subarray(0, Math.min(CHUNK, UPLOAD_BYTES - at));
    const res = await bucket.client.send(
      new UploadPartCommand({
        Bucket: bucket.name,
        Key: 'bench/sdk-direct',
        UploadId,
        PartNumber: n,
        Body: body,
        ContentLength: body.length,
      }),
    );
    parts.push({ PartNumber: n, ETag: res.ETag! });
  }
  await bucket.client.send(
    new CompleteMultipartUploadCommand({
      Bucket: bucket.name,
      Key: 'bench/sdk-direct',
      UploadId,
      MultipartUpload: { Parts: parts },
    }),
  );
  return UPLOAD_BYTES / MB / ((performance.now() - started) / 1000);
}

/** Seconds from finalize to playable, and then to the whole ladder, for the 60 s source. */
export async function packaging(
  lectern: Lectern,
  source: string,
): Promise<{ playable: number; ladder: number; url: string }> {
  await uploadInProcess(lectern.base, lectern.cookie, source, 'lecture-720p.mp4');
  const started = performance.now();
  const fin = await fetch(`${lectern.base}/stream/upload`, {
    method: 'POST',
    headers: { cookie: lectern.cookie, filename: 'lecture-720p.mp4' },
  });
  const { url } = (await fin.json()) as { url: string };
  const playable = await secondsUntilPlayable(`${lectern.base}${url}`, lectern.cookie, started, 120_000);
  const probe = await createMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' }).probe(source);
  const videoId = url.split('/')[3]!;
  for (;;) {
    const [row] = await lectern.db
      .select({ renditions: videos.renditions })
      .from(videos)
      .where(eq(videos.id, videoId));
    if (row!.renditions.length >= ladderFor(probe!.video!.height).length + 1) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { playable, ladder: (performance.now() - started) / 1000, url };
}

/** wrk against one URL: requests/s and MB/s. */
async function wrk(
  url: string,
  connections: number,
  cookie?: string,
): Promise<{ rps: number; mbps: number; errors: boolean }> {
  const { stdout } = await run$(
    'wrk',
    [
      '-t2',
      `-c${connections}`,
      `-d${SECONDS}s`,
      '--timeout',
      '10s',
      ...(cookie ? ['-H', `Cookie: ${cookie}`] : []),
      url,
    ],
    {
      timeout: (SECONDS + 30) * 1000,
    },
  );
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
  const m = /Transfer\/sec:\s+([\d.]+)(KB|MB|GB)/.exec(stdout);
  const mbps = m ? (Number(m[1]) * { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[m[2] as 'KB'] * 1) / MB : NaN;
  const errors = /(Non-2xx.*|Socket errors.*)/.exec(stdout)?.[1];
  if (errors) console.log(`  wrk ${connections} connections: ${errors}`);
  return { rps, mbps, errors: Boolean(errors) };
}

export async function run(): Promise<boolean> {
  if (!process.env.S3_ENDPOINT) {
    console.log('No S3 server: eval "$(../shared/tools/s3-server/start)" first.');
    return false;
  }
  const work = await mkdtemp(path.join(tmpdir(), 'lectern-bench-storage-'));
  const bucket = await createTestBucket();
  const stops: (() => Promise<unknown>)[] = [() => bucket.drop()];
  const checks: { name: string; value: string; pass: boolean }[] = [];
  try {
    const source = await benchSource();

    // Upload: the SDK straight to the bucket, then the same bytes through Lectern.
    const sdkMBps = await sdkUpload(bucket);
    const onS3 = await startLectern(work, 's3', bucket.env);
    stops.unshift(() => onS3.close());
    const rssBefore = process.memoryUsage.rss();
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
    const upload = await child<{ bytes: number; elapsedMs: number }>('upload-client.ts', {
      port: onS3.port,
      cookie: onS3.cookie,
      fileName: 'big-upload.bin',
      totalBytes: UPLOAD_BYTES,
      chunkBytes: CHUNK,
    } satisfies UploadClientOptions);
    clearInterval(sampler);
    const lecternMBps = upload.bytes / MB / (upload.elapsedMs / 1000);

    // Packaging the same source on S3, then on local disk.
    const s3Packaging = await packaging(onS3, source);
    const onLocal = await startLectern(work, 'local', {});
    const localPackaging = await packaging(onLocal, source);
    await onLocal.close();

    // Segments: through Lectern from the bucket, and a presigned GET of the same object.
    const master = await (
      await fetch(`${onS3.base}${s3Packaging.url}`, { headers: { cookie: onS3.cookie } })
    ).text();
    const childUrl = new URL(
      master.split('\n').find((l) => l.startsWith('v720/'))!,
      `${onS3.base}${s3Packaging.url}`,
    );
    const playlist = await (await fetch(childUrl, { headers: { cookie: onS3.cookie } })).text();
    const segment = playlist.split('\n').find((l) => l && !l.startsWith('#'))!;
    const throughLectern = new URL(segment, childUrl).toString();
    const key = `videos/${s3Packaging.url.split('/')[3]}/v720/${segment.split('?')[0]}`;
    const presigned = await bucket.store.presignGet(key, 3600);
    const segmentBytes = (await bucket.store.head(key))!.size;
    const segments: Record<string, { rps: number; mbps: number; errors: boolean }> = {};
    for (const c of [16, 128]) {
      segments[`lectern/${c}`] = await wrk(throughLectern, c, onS3.cookie);
      segments[`presigned/${c}`] = await wrk(presigned, c);
    }

    console.log(`\nUpload of ${(UPLOAD_BYTES / 1024 ** 3).toFixed(2)} GiB in 5 MiB parts, one at a time`);
    console.log(
      `  through Lectern into S3       ${lecternMBps.toFixed(0).padStart(6)} MB/s   (checksummed, each chunk streamed into one part)`,
    );
    console.log(
      `  SDK straight to S3            ${sdkMBps.toFixed(0).padStart(6)} MB/s   (multipart, same part size)`,
    );
    console.log(
      `  direct-to-bucket (browser)    not built in this round: presigned part URLs are left for later`,
    );
    console.log(
      `  Lectern RSS: ${(rssBefore / MB).toFixed(0)} MB before, peak ${(peakRss / MB).toFixed(0)} MB`,
    );
    console.log(`\nPackaging the 60 s 720p source (finalize -> playable; -> whole ladder)`);
    console.log(
      `  local disk   ${localPackaging.playable.toFixed(2).padStart(6)} s   ${localPackaging.ladder.toFixed(1).padStart(6)} s`,
    );
    console.log(
      `  S3           ${s3Packaging.playable.toFixed(2).padStart(6)} s   ${s3Packaging.ladder.toFixed(1).padStart(6)} s`,
    );
    console.log(`\nSegment GET (${(segmentBytes / MB).toFixed(2)} MB), wrk -t2, ${SECONDS} s`);
    console.log(`${''.padEnd(34)}${'16 connections'.padEnd(26)}128 connections`);
    for (const [name, label] of [
      ['lectern', 'through Lectern from S3'],
      ['presigned', 'presigned GET straight to S3'],
    ]) {
      const cells = [16, 128].map((c) => {
        const r = segments[`${name}/${c}`]!;
        return `${r.rps.toFixed(0).padStart(6)} req/s ${r.mbps.toFixed(0).padStart(5)} MB/s${r.errors ? ' (errors)' : ''}`.padEnd(
          26,
        );
      });
      console.log(`  ${label!.padEnd(32)}${cells.join('')}`);
    }

    const uploadRatio = lecternMBps / sdkMBps;
    checks.push({
      name: 'upload through Lectern ≥ 0.8 × SDK direct',
      value: uploadRatio.toFixed(2),
      pass: uploadRatio >= 0.8,
    });
    const grew = peakRss - rssBefore;
    checks.push({
      name: 'RSS growth during the upload < 100 MB',
      value: `+${(grew / MB).toFixed(0)} MB`,
      pass: grew < 100 * MB,
    });
    const packRatio = s3Packaging.ladder / localPackaging.ladder;
    checks.push({
      name: 'packaging (to the whole ladder) on S3 ≤ 1.3 × local disk',
      value: `${packRatio.toFixed(2)} (playable: ${(s3Packaging.playable / localPackaging.playable).toFixed(2)})`,
      pass: packRatio <= 1.3,
    });
    for (const c of [16, 128]) {
      const r = segments[`lectern/${c}`]!.rps / segments[`presigned/${c}`]!.rps;
      checks.push({
        name: `segments through Lectern vs presigned, ${c} conns (reported)`,
        value: r.toFixed(2),
        pass: true,
      });
      if (segments[`lectern/${c}`]!.errors || segments[`presigned/${c}`]!.errors)
        checks.push({ name: `no failed segment requests, ${c} conns`, value: 'some failed', pass: false });
    }
    console.log(`\nTargets (${cpus().length} cores, Node ${process.version}, RGW on the same machine)`);
    for (const check of checks)
      console.log(`  [${check.pass ? 'PASS' : 'FAIL'}] ${check.name}: ${check.value}`);
    return checks.every((c) => c.pass);
  } finally {
    for (const stop of stops) await stop().catch((error: unknown) => console.error(error));
    await rm(work, { recursive: true, force: true });
  }
}
