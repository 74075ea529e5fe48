/**
 * Leak trace lookup on PostgreSQL with 1,000,000 stored playback sessions (BENCH_TRACE_SESSIONS
 * shrinks it): 1,000 students x 100 videos seeded with generate_series, then GET /api/admin/trace's
 * service (`traceCode`: the session, its student, and their sessions a day either side) for 2,000
 * random codes, one after another. Target: p99 < 20 ms. Beside it, the baseline: the same lookups
 * without the (user_id, started_at) index, to show what the index buys.
 *
 *   npm run bench -- trace          (needs BENCH_DATABASE_URL or TEST_DATABASE_URL)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/server/config';
import type { Db } from '../src/server/db/client';
import { traceCode } from '../src/server/playback/sessions';
import { openRuntime } from '../src/server/runtime';
import { createTestDatabase } from '../test/support/databases';

const SESSIONS = Number(process.env.BENCH_TRACE_SESSIONS ?? 1_000_000);
const LOOKUPS = 2_000;
const TARGET_P99_MS = 20;

const rows = async <T>(db: Db, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function lookups(db: Db, codes: string[]) {
  const times: number[] = [];
  for (const code of codes) {
    const started = performance.now();
    await traceCode(db, code);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 0.5), p99: pct(times, 0.99) };
}

async function seed(db: Db) {
  const started = performance.now();
  await db.execute(sql`
    insert into users (role, username, email, name, rollno, password_hash, first_login)
    select 'student', 'bench' || i, 'bench' || i || '@example.test', 'Bench Student ' || i, 'BT-' || i, 'x', false
    from generate_series(1, 1000) i`);
  await db.execute(sql`
    insert into courses (batch, course_code, name, description, start_date, end_date)
    values (1, 'BENCH', 'Bench course', 'd', '2026-01-01', '2026-12-31')`);
  await db.execute(sql`
    insert into videos (title, course_id, status, duration_seconds, source_name)
    select 'Bench video ' || i, (select id from courses limit 1), 'ready', 600, 'b.mp4' from generate_series(1, 100) i`);
  // Codes from md5's hex digits: all in the Crockford alphabet; the few repeats are skipped.
  await db.execute(sql`
    with u as (select id, row_number() over () - 1 as n from users where role = 'student'),
         v as (select id, course_id, row_number() over () - 1 as n from videos)
    insert into playback_sessions (code, user_id, video_id, course_id, started_at, ip, user_agent)
    select upper(substr(md5(i::text), 1, 8)), u.id, v.id, v.course_id,
           now() - (i % 15552000) * interval '1 second', '10.0.' || (i % 250) || '.' || (i % 200),
           'Mozilla/5.0 (X11; Linux x86_64) Chrome/120 bench'
    from generate_series(1, ${SESSIONS}) i
    join u on u.n = i % 1000
    join v on v.n = i % 100
    on conflict do nothing`);
  await db.execute(sql`analyze playback_sessions`);
  return (performance.now() - started) / 1000;
}

export async function run(): Promise<boolean> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('trace: set BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL); skipped');
    return false;
  }
  process.env.TEST_DATABASE_URL = url;
  const database = await createTestDatabase('postgres');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-bench-trace-'));
  const runtime = await openRuntime(
    loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'warn', SEED_DEMO: 'false' }),
  );
  const db = runtime.ctx.db;
  try {
    const seconds = await seed(db);
    const [{ count } = { count: 0 }] = await rows<{ count: number }>(
      db,
      sql`select count(*)::int as count from playback_sessions`,
    );
    console.log(`\n[trace] ${count} playback sessions seeded in ${seconds.toFixed(1)} s`);
    const codes = (
      await rows<{ code: string }>(
        db,
        sql`select code from playback_sessions order by random() limit ${LOOKUPS}`,
      )
    ).map((r) => r.code);
    await lookups(db, codes.slice(0, 100)); // warm the cache, as a running server would be
    const indexed = await lookups(db, codes);
    await db.execute(sql`drop index playback_sessions_user_idx`);
    const baseline = await lookups(db, codes.slice(0, 200));
    const pass = indexed.p99 < TARGET_P99_MS;
    console.log(
      [
        '',
        'trace lookup (session + student + sessions a day either side), one at a time:',
        `  ${'case'.padEnd(44)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`,
        `  ${'baseline: without the (user_id, started_at) index'.padEnd(44)} ${baseline.p50.toFixed(2).padStart(8)} ${baseline.p99.toFixed(2).padStart(8)}`,
        `  ${`with it (${LOOKUPS} codes)`.padEnd(44)} ${indexed.p50.toFixed(2).padStart(8)} ${indexed.p99.toFixed(2).padStart(8)}`,
        `  ratio baseline/indexed p99: ${(baseline.p99 / indexed.p99).toFixed(1)}x; target p99 < ${TARGET_P99_MS} ms: ${pass ? 'met' : 'MISSED'}`,
      ].join('\n'),
    );
    return pass;
  } finally {
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
