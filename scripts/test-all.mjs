// `npm test`: the static checks side by side (each is one core's work), then each test tier in
// turn; every stage's seconds go to test-results/timings.json (scripts/test-timings.mjs).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cpuMark, readTimings, recordStage } from './test-timings.mjs';

/**
 * `npm run NAME`. `quiet`: its output kept until it ends, so that short side-by-side checks do not
 * interleave; `prefix`: each line as it comes, behind the tier's name (long tiers side by side).
 */
function run(name, { quiet = false, prefix = '' } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', name], {
      stdio: quiet || prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    if (prefix) {
      for (const stream of [child.stdout, child.stderr])
        createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix} ${line}\n`));
    } else {
      child.stdout?.on('data', (d) => (output += d));
      child.stderr?.on('data', (d) => (output += d));
    }
    child.on('exit', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      const summary = `\n> ${name} (${seconds.toFixed(0)} s, ${code === 0 ? 'ok' : `exit ${code ?? signal}`})\n`;
      if (quiet) process.stdout.write(`${summary}${output}`);
      if (prefix) process.stdout.write(summary);
      resolve({ ok: code === 0, seconds });
    });
  });
}

async function stage(name, work) {
  const started = Date.now();
  const cpu = cpuMark();
  const ok = await work();
  recordStage(name, (Date.now() - started) / 1000, cpu);
  if (!ok) {
    console.error(`\nnpm test: ${name} failed`);
    process.exit(1);
  }
}

/** Runs `names` one after another, stopping at the first that fails. */
async function inTurn(names) {
  for (const name of names) if (!(await run(name, { quiet: true })).ok) return false;
  return true;
}

// Typecheck, lint (ESLint, dependency-cruiser, folder cycles), the migration lint and the build read
// the same files and write nothing the others read: two lanes of about the same length, one per
// core (four at once took 83 s where one after another took 67). The student pages' JavaScript
// budget reads the build. The lint goes after the build: after the typecheck, that lane took 66 s
// and the build's 24 (a clean clone, 2026-11-30), a core idle for 40 s; now 45 and 51 s (the stage
// 65 -> 52 s on the same CPU).
await stage('static checks + build', async () => {
  const results = await Promise.all([
    inTurn(['typecheck']),
    inTurn(['build', 'budget', 'lint:migrations', 'lint']),
  ]);
  return results.every(Boolean);
});

const vitestStarted = Date.now();
const vitestCpu = cpuMark();
const vitest = await run('test:vitest');
// The reporter recorded the files that run alone as "vitest serial"; the rest ran two at a time.
// The CPU figures of the whole vitest run go on this row.
const serial = readTimings().stages.find((s) => s.name === 'vitest serial')?.seconds ?? 0;
recordStage('vitest parallel', (Date.now() - vitestStarted) / 1000 - serial, vitestCpu);
if (!vitest.ok) {
  console.error('\nnpm test: vitest failed');
  process.exit(1);
}
// The Playwright specs, the Firefox/WebKit journeys and the two clusters (scale-out and the rolling
// restart) side by side: the browsers mostly wait on real-time playback, and the clusters on a
// worker's lock going stale (60 s) and on a minute of viewers through two restarts (the scale stage
// left the machine 63% busy: 59 CPU-seconds in 85 s). Each starts its own servers on free ports and
// data folders, and none times an answer against a limit; the evening rush, which does, runs alone
// after `npm test` (.ci/run, `npm run test:rush`).
await stage('e2e + engines + clusters (side by side)', async () => {
  const [e2e, engines, clusters] = await Promise.all([
    run('test:e2e', { prefix: '[e2e]' }),
    run('test:browsers', { prefix: '[engines]' }),
    run('test:clusters', { prefix: '[clusters]' }),
  ]);
  if (!e2e.ok) console.error('\nnpm test: e2e (Playwright) failed');
  if (!engines.ok) console.error('\nnpm test: engines failed');
  if (!clusters.ok) console.error('\nnpm test: the scale-out clusters failed');
  return e2e.ok && engines.ok && clusters.ok;
});
