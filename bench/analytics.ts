/**
 * Learning analytics benchmark, on PostgreSQL and on PGlite in one run: a cohort of 10,000
 * students x 200 videos with 30 days of history (BENCH_ANALYTICS_STUDENTS / _VIDEOS shrink it).
 *
 *   npm run bench -- analytics
 *   BENCH_DATABASE_URL / TEST_DATABASE_URL   PostgreSQL for the throwaway database (else PGlite only)
 *   BENCH_ENGINES=postgres,pglite            which engines, in order
 *   BENCH_SECONDS=8                          per load scenario
 *
 * Per engine: progress-save ingest at 32 requests in flight, today's save path (before ranges, kept in
 * bench/legacy-progress.ts) beside the new one with and without ranges; 300 viewers saving every 10 s
 * and the CPU that costs per viewer; the course grid, video retention and student page under load;
 * the full grid as CSV; and the storage per student-video pair. Targets: >= 2,000 saves/s with
 * p99 < 50 ms, reads p99 < 150 ms.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { sessionStore } from '../src/server/accounts/sessions';
import { createAdmin } from '../src/server/accounts/users';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import type { Db } from '../src/server/db/client';
import { createAuth } from '../src/server/http/auth';
import { openRuntime } from '../src/server/runtime';
import { resourceOwners } from '../src/server/videos/owners';
import { createTestDatabase } from '../test/support/databases';
import { BENCH_ANALYTICS, seedAnalyticsCohort } from './analytics-seed';
import { legacySaveProgress } from './legacy-progress';
import { measure } from './load';
import { measureSaves, type SaveLoadResult } from './save-load';
import { runIfMain } from '../test/support/child-main';

type Engine = 'postgres' | 'pglite';

interface Row {
  name: string;
  p50?: number;
  p99?: number;
  rps?: number;
  errors?: number;
  note?: string;
  target?: string;
  pass?: boolean;
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const INGEST_VIEWERS = 2_000;

const rows = async <T>(db: Db, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** CPU seconds (user + system) of the processes in `pids`, from /proc. */
function cpuSecondsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / 100;
}

async function benchEngine(engine: Engine, postgresUrl: string | undefined): Promise<Row[]> {
  const previous = process.env.TEST_DATABASE_URL;
  if (postgresUrl) process.env.TEST_DATABASE_URL = postgresUrl;
  const database = await createTestDatabase(engine).finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-bench-analytics-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: engine === 'postgres' ? database.url : undefined,
    LOG_LEVEL: 'warn',
    OPEN_HOURS: 'always',
    SEED_DEMO: 'false',
  });
  const runtime = await openRuntime(config);
  const { ctx } = runtime;
  const out: Row[] = [];
  try {
    const size = {
      ...BENCH_ANALYTICS,
      students: Number(process.env.BENCH_ANALYTICS_STUDENTS ?? BENCH_ANALYTICS.students),
      videos: Number(process.env.BENCH_ANALYTICS_VIDEOS ?? BENCH_ANALYTICS.videos),
    };
    console.log(
      `\n[${engine}] seeding ${size.students} students x ${size.videos} videos, ${size.days} days…`,
    );
    const seed = await seedAnalyticsCohort(ctx.db, size, ctx.clock.now());
    console.log(
      `[${engine}]   ${seed.pairs} pairs, ${seed.progressRows} progress rows, ${seed.dayRows} day rows in ${seed.seconds.toFixed(1)} s`,
    );
    out.push({
      name: 'machine load (1 min avg, 2 cores)',
      note: `${loadavg()[0]!.toFixed(1)} after seeding`,
    });
    out.push({ name: 'seed', note: `${seed.progressRows} progress rows in ${seed.seconds.toFixed(0)} s` });

    // Storage per pair, before the load adds to it.
    const [storage] = await rows<{
      progress: number;
      buckets: number;
      days: number;
      stats: number;
      bitmap: number;
      n: number;
    }>(
      ctx.db,
      sql`select pg_total_relation_size('video_progress')::float8 as progress,
                 pg_total_relation_size('video_watch_buckets')::float8 as buckets,
                 pg_total_relation_size('watch_days')::float8 as days,
                 pg_total_relation_size('course_watch_stats')::float8 as stats,
                 (select avg(octet_length(watched_cells))::float8 from video_progress) as bitmap,
                 (select count(*)::float8 from video_progress) as n`,
    );
    if (!storage) throw new Error('no storage figures');
    const per = (bytes: number) => (bytes / storage.n).toFixed(0);
    out.push({
      name: 'storage per watched pair',
      note:
        `progress row ${per(storage.progress)} B (bitmap ${storage.bitmap.toFixed(0)} B) + day rows ${per(storage.days)} B` +
        ` + buckets ${per(storage.buckets)} B + course totals ${per(storage.stats)} B` +
        ` = ${per(storage.progress + storage.days + storage.buckets + storage.stats)} B (tables and indexes)`,
    });

    const app = await buildApp(ctx);
    // Today's save path (before ranges), as the baseline beside the new one.
    const auth = createAuth(sessionStore(ctx.db), ctx.clock, {
      factorRequired: ctx.config.adminMfa === 'required',
      owners: resourceOwners(ctx.db),
    });
    app.post('/bench/legacy-progress', async (request, reply) => {
      const { user } = await auth.requireStudent(request);
      const body = request.body as { videoId: string; position: number; watched: number };
      return reply
        .status(await legacySaveProgress(ctx.db, user, body, ctx.clock.now(), ctx.config.openTimeZone))
        .send({});
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // Sessions for the viewers, made directly (signing 2,000 people in would measure argon2).
    const students = await rows<{ id: string }>(
      ctx.db,
      sql`select id from users where username like 'viewer%' order by username limit ${INGEST_VIEWERS}`,
    );
    const videos = await rows<{ id: string }>(
      ctx.db,
      sql`select id from videos where course_id = ${seed.courseId} order by position`,
    );
    const sessions = sessionStore(ctx.db);
    const viewers: { cookie: string; videoIds: string[] }[] = [];
    for (const [i, s] of students.entries()) {
      const token = await sessions.create({ id: s.id, role: 'student' }, 'full', ctx.clock.now(), 2);
      // A cohort watches the same few lectures in the evening: 10 videos, 3 per viewer.
      const own = [0, 1, 2].map((k) => videos[(i + k * 3) % Math.min(10, videos.length)]!.id);
      viewers.push({ cookie: `token=${token}`, videoIds: own });
    }

    const ingest = async (name: string, pathName: string, body: 'ranges' | 'legacy', target: boolean) => {
      const r: SaveLoadResult = await measureSaves({
        url: `${base}${pathName}`,
        viewers,
        body,
        connections: 32,
        durationMs: SECONDS * 1000,
      });
      const pass = target ? r.rps >= 2000 && r.p99 < 50 && r.errors === 0 : undefined;
      out.push({
        name,
        p50: r.p50,
        p99: r.p99,
        rps: r.rps,
        errors: r.errors,
        target: target ? '>= 2,000/s, p99 < 50 ms' : undefined,
        pass,
        note: r.errors ? JSON.stringify(r.statuses) : undefined,
      });
      return r;
    };
    const legacy = await ingest('save, today (baseline)', '/bench/legacy-progress', 'legacy', false);
    const oldClient = await ingest('save, old client, new path', '/api/progress', 'legacy', false);
    const ranged = await ingest('save with ranges', '/api/progress', 'ranges', true);
    out.push({
      name: 'ratios to baseline',
      note: `throughput x${(ranged.rps / legacy.rps).toFixed(2)} (old client x${(oldClient.rps / legacy.rps).toFixed(2)}), p99 x${(ranged.p99 / legacy.p99).toFixed(2)}`,
    });

    // The evening rush: 300 viewers each saving every 10 s, and what one viewer costs.
    const backends = async () =>
      engine === 'postgres'
        ? (
            await rows<{ pid: number }>(
              ctx.db,
              sql`select pid from pg_stat_activity where datname = current_database()`,
            )
          ).map((r) => r.pid)
        : [];
    const rushSeconds = Math.max(20, SECONDS * 2);
    // PostgreSQL backends come and go with the pool: each one's CPU from when it is first seen to its last sample.
    const seen = new Map<number, { first: number; last: number }>();
    const sampleBackends = async () => {
      for (const pid of await backends()) {
        const now = cpuSecondsOf([pid]);
        const entry = seen.get(pid);
        if (entry) entry.last = Math.max(entry.last, now);
        else seen.set(pid, { first: now, last: now });
      }
    };
    // What the process burns with nobody watching (job runner polls, timers, GC), to tell the viewers' share apart.
    const idle0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 5_000));
    const idle = process.cpuUsage(idle0);
    const idleShare = (idle.user + idle.system) / 1e6 / 5;
    await sampleBackends();
    const startedPids = new Set(seen.keys());
    const sampler = setInterval(() => void sampleBackends(), 1000);
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const rush = await measureSaves({
      url: `${base}/api/progress`,
      viewers: viewers.slice(0, 300),
      body: 'ranges',
      everyMs: 10_000,
      durationMs: rushSeconds * 1000,
      warmupMs: 0,
    });
    clearInterval(sampler);
    await sampleBackends();
    const cpu = process.cpuUsage(cpu0);
    const rushWall = (performance.now() - wall0) / 1000;
    const appSeconds = (cpu.user + cpu.system) / 1e6;
    // A backend that appeared during the rush counts from zero.
    let dbSeconds = 0;
    for (const [pid, { first, last }] of seen) dbSeconds += last - (startedPids.has(pid) ? first : 0);
    const marginal = Math.max(0, appSeconds - idleShare * rushWall) + dbSeconds;
    const perViewerMs = (marginal / rushWall / 300) * 1000;
    const perSaveMs = (marginal / Math.max(1, rush.requests)) * 1000;
    out.push({
      name: '300 viewers, a save / 10 s',
      p50: rush.p50,
      p99: rush.p99,
      rps: rush.rps,
      errors: rush.errors,
      note:
        `${(rush.requests / rushWall).toFixed(0)} saves/s; CPU ${(((appSeconds + dbSeconds) / rushWall) * 100).toFixed(1)}% of a core in all ` +
        `(app ${((appSeconds / rushWall) * 100).toFixed(1)}%${engine === 'postgres' ? `, PostgreSQL ${((dbSeconds / rushWall) * 100).toFixed(1)}%` : ', PGlite in it'}): ` +
        `idle ${(idleShare * 100).toFixed(1)}%; above idle ${perSaveMs.toFixed(2)} ms CPU per save, ` +
        `${(perViewerMs / 10).toFixed(3)}% of a core per viewer (${Math.floor(100 / (perViewerMs / 10))} viewers per core)`,
    });

    // Reads, as an admin's screens make them.
    const admin = await createAdmin(ctx.db, {
      username: 'benchadmin',
      email: 'a@bench.test',
      password: 'Bench@12345',
    });
    const adminToken = await sessions.create({ id: admin.id, role: 'admin' }, 'full', ctx.clock.now(), 2);
    const headers = { cookie: `token=${adminToken}`, 'accept-encoding': 'gzip' };
    const reads: [string, string][] = [
      ['course grid, by name', `/api/admin/analytics/courses/${seed.courseId}`],
      [
        'course grid, at risk by share',
        `/api/admin/analytics/courses/${seed.courseId}?filter=at-risk&sort=share&order=desc`,
      ],
      ['video retention', `/api/admin/analytics/videos/${videos[5]!.id}`],
      ['student page', `/api/admin/analytics/students/${students[7]!.id}`],
    ];
    for (const [name, url] of reads) {
      const r = await measure({ url: `${base}${url}`, headers, connections: 4, durationMs: SECONDS * 1000 });
      const targeted = name !== 'student page';
      const pass = targeted ? r.p99 < 150 && r.errors === 0 : undefined;
      out.push({
        name,
        p50: r.p50,
        p99: r.p99,
        rps: r.rps,
        errors: r.errors,
        target: targeted ? 'p99 < 150 ms' : undefined,
        pass,
        note: `${(r.bytesPerResponse / 1024).toFixed(0)} KiB a response (JSON, not compressed)`,
      });
    }
    const csvStart = performance.now();
    const csv = await fetch(`${base}/api/admin/analytics/courses/${seed.courseId}?format=csv`, {
      headers: { cookie: headers.cookie },
    });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of csv.body!) {
      bytes += chunk.length;
      for (const b of chunk as Uint8Array) if (b === 10) lines++;
    }
    const csvSeconds = (performance.now() - csvStart) / 1000;
    out.push({
      name: 'course grid CSV (whole)',
      note: `${lines - 1} rows, ${(bytes / 1024 / 1024).toFixed(0)} MiB in ${csvSeconds.toFixed(1)} s (${((lines - 1) / csvSeconds / 1000).toFixed(0)}k rows/s), streamed`,
    });
    await app.close();
  } finally {
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return out;
}

const fmt = (n: number | undefined, unit = ' ms') => (n === undefined ? '' : `${n.toFixed(1)}${unit}`);

export async function run(): Promise<boolean> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const postgresUrl = url && url !== 'embedded' ? url : undefined;
  const wanted = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',') as Engine[];
  const engines = wanted.filter((e) => e === 'pglite' || postgresUrl);
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    const { rows: v } = await client.query('show server_version');
    await client.end();
    console.log(`PostgreSQL ${v[0].server_version} at ${new URL(postgresUrl).host}`);
  }
  const results = new Map<Engine, Row[]>();
  for (const engine of engines) results.set(engine, await benchEngine(engine, postgresUrl));
  let ok = true;
  console.log('\n=== learning analytics: figures side by side ===');
  const names = [...new Set([...results.values()].flatMap((r) => r.map((row) => row.name)))];
  for (const name of names) {
    console.log(`\n${name}`);
    for (const [engine, list] of results) {
      const row = list.find((r) => r.name === name);
      if (!row) continue;
      if (row.pass === false) ok = false;
      const figures = [
        row.rps !== undefined ? `${row.rps.toFixed(0)}/s` : '',
        row.p50 !== undefined ? `p50 ${fmt(row.p50)}` : '',
        row.p99 !== undefined ? `p99 ${fmt(row.p99)}` : '',
        row.errors ? `errors ${row.errors}` : '',
        row.target ? `target ${row.target}: ${row.pass ? 'PASS' : 'FAIL'}` : '',
        row.note ?? '',
      ].filter(Boolean);
      console.log(`  ${engine.padEnd(9)} ${figures.join(' · ')}`);
    }
  }
  return ok;
}

runIfMain(import.meta.url, run);
