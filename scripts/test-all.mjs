// `npm test`: the static checks side by side (each is one core's work), then each test tier in
// turn; every stage's seconds go to test-results/timings.json (scripts/test-timings.mjs).
import { spawn } from 'node:child_process';
import { readTimings, recordStage } from './test-timings.mjs';

/** `npm run NAME`, its output kept until it ends so that side-by-side checks do not interleave. */
function run(name, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', name], {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('exit', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      if (quiet)
        process.stdout.write(
          `\n> ${name} (${seconds.toFixed(0)} s, ${code === 0 ? 'ok' : `exit ${code ?? signal}`})\n${output}`,
        );
      resolve({ ok: code === 0, seconds });
    });
  });
}

async function stage(name, work) {
  const started = Date.now();
  const ok = await work();
  recordStage(name, (Date.now() - started) / 1000);
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
// budget reads the build.
await stage('static checks + build', async () => {
  const results = await Promise.all([
    inTurn(['typecheck', 'lint']),
    inTurn(['build', 'budget', 'lint:migrations']),
  ]);
  return results.every(Boolean);
});

const vitestStarted = Date.now();
const vitest = await run('test:vitest');
// The reporter recorded the files that run alone as "vitest serial"; the rest ran two at a time.
const serial = readTimings().stages.find((s) => s.name === 'vitest serial')?.seconds ?? 0;
recordStage('vitest parallel', (Date.now() - vitestStarted) / 1000 - serial);
if (!vitest.ok) {
  console.error('\nnpm test: vitest failed');
  process.exit(1);
}
await stage('e2e (Playwright)', async () => (await run('test:e2e')).ok);
await stage('engines', async () => (await run('test:browsers')).ok);
