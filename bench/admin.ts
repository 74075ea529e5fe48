/**
 * Admin back office benchmark: a generated school of 200 courses, 10,000 students and 5,000 videos,
 * then GET /api/admin/course/dashboard and the full GET /api/admin/course/accesslist at 32
 * connections. Targets: p99 under 50 ms and under 200 ms.
 *
 *   npm run bench -- admin   (or node --import tsx bench/admin.ts)
 *   BENCH_DATABASE_URL=postgres://…   a throwaway database is created there (default: TEST_DATABASE_URL);
 *                                     with neither, or with BENCH_DATABASE_URL=embedded, PGlite on disk
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=32   duration per scenario and concurrency
 *
 * PGlite runs in the app's own thread, one query at a time: there the first row (the session check
 * every admin call starts with) is the ceiling for every other row.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createAdmin } from '../src/server/accounts/users';
import { signIn } from './streaming';
import { enrollments as enrollmentsTable } from '../src/server/db/schema';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openRuntime } from '../src/server/runtime';
import { benchDatabase } from '../test/support/databases';
import { measure, type LoadResult } from './load';
import { BENCH_SCHOOL, generateSchool } from './school';
import { runIfMain } from '../test/support/child-main';

interface Scenario {
  name: string;
  path: string;
  /** Send `accept-encoding: gzip` as a browser does. */
  gzip: boolean;
  p99TargetMs?: number;
  /** An admin extends someone's access this often during the run, so the cached lists keep being rebuilt. */
  writeEveryMs?: number;
}

// The targets apply to the calls as a browser makes them; the other rows put the figures in context.
const SCENARIOS: Scenario[] = [
  { name: 'session check (floor)', path: '/api/admin/auth/admincheck', gzip: true },
  { name: 'dashboard', path: '/api/admin/course/dashboard', gzip: true, p99TargetMs: 50 },
  { name: 'access list (full)', path: '/api/admin/course/accesslist', gzip: true, p99TargetMs: 200 },
  { name: 'dashboard, no gzip', path: '/api/admin/course/dashboard', gzip: false },
  { name: 'access list, no gzip', path: '/api/admin/course/accesslist', gzip: false },
  { name: 'access list, 1 write/s', path: '/api/admin/course/accesslist', gzip: true, writeEveryMs: 1_000 },
];

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

export async function run(): Promise<boolean> {
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
  const durationMs = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
  const database = await benchDatabase();
  const postgres = database.name === 'postgres';
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-bench-'));
  // Without a PostgreSQL URL: the embedded default, PGlite on disk in DATA_DIR.
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: postgres ? database.url : undefined,
    LOG_LEVEL: 'warn',
    OPEN_HOURS: 'always',
    SEED_DEMO: 'false',
  });
  const runtime = await openRuntime(config);
  const { ctx } = runtime;
  let ok = true;
  try {
    console.log(`Generating a school on ${ctx.dbKind}…`);
    const school = await generateSchool(ctx.db, BENCH_SCHOOL, ctx.clock.now());
    console.log(
      `  ${school.courses} courses, ${school.students} students, ${school.videos} videos, ` +
        `${school.enrollments} enrollments, ${school.videoAccess} video grants, ${school.auditEvents} audit events ` +
        `in ${school.seconds.toFixed(1)} s`,
    );
    const admin = await createAdmin(ctx.db, {
      username: 'benchadmin',
      email: 'admin@bench.test',
      password: 'Bench@12345',
    });
    const app = await buildApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // The password and the second step (a TOTP factor set up on this first sign-in).
    const cookie = await signIn(base, '/api/admin/login', admin.username, 'Bench@12345');

    console.log(
      `\n${connections} connections, ${durationMs / 1000} s each (after 1 s warm-up), ${ctx.dbKind}`,
    );
    const enrollments = await ctx.db
      .select({ courseId: enrollmentsTable.courseId, studentId: enrollmentsTable.studentId })
      .from(enrollmentsTable)
      .limit(500);
    for (const scenario of SCENARIOS) {
      const headers: Record<string, string> = scenario.gzip
        ? { cookie, 'accept-encoding': 'gzip' }
        : { cookie };
      const first = performance.now();
      await (await fetch(`${base}${scenario.path}`, { headers })).arrayBuffer();
      const firstMs = performance.now() - first;
      let writes = 0;
      const writer = scenario.writeEveryMs
        ? setInterval(() => {
            const pick = enrollments[writes++ % enrollments.length]!;
            void fetch(`${base}/api/admin/course/grantaccess`, {
              method: 'POST',
              headers: { cookie, 'content-type': 'application/json' },
              body: JSON.stringify({ ...pick, days: 1 }),
            }).then((r) => r.arrayBuffer());
          }, scenario.writeEveryMs)
        : undefined;
      const result: LoadResult = await measure({
        url: `${base}${scenario.path}`,
        headers,
        connections,
        durationMs,
      });
      clearInterval(writer);
      const pass =
        scenario.p99TargetMs === undefined || (result.p99 < scenario.p99TargetMs && result.errors === 0);
      ok &&= pass;
      console.log(
        [
          scenario.name.padEnd(24),
          `p50 ${fmt(result.p50)}`.padEnd(14),
          `p99 ${fmt(result.p99)}`.padEnd(14),
          `${result.rps.toFixed(0)} req/s`.padEnd(12),
          `${(result.bytesPerResponse / 1024).toFixed(0)} KiB`.padEnd(10),
          `first ${fmt(firstMs)}`.padEnd(18),
          `errors ${result.errors}`.padEnd(10),
          scenario.p99TargetMs ? `target p99 < ${scenario.p99TargetMs} ms: ${pass ? 'PASS' : 'FAIL'}` : '',
        ].join(' '),
      );
    }
    await app.close();
  } finally {
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return ok;
}

runIfMain(import.meta.url, run);
