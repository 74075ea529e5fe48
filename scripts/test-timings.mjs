// Where a test run's time went: stages (`.ci/run`, `npm test`) and test files (vitest, Playwright, the
// engine journeys) write here, and `report` prints the table docs/TESTING.md compares against.
//   node scripts/test-timings.mjs stage NAME SECONDS   records a stage measured by a shell
//   node scripts/test-timings.mjs report               prints stages, counts per tier, slowest files
//   node scripts/test-timings.mjs reset                starts a new run's record
//   node scripts/test-timings.mjs save                 keeps the vitest files' times in test/file-times.json,
//                                                      the order vitest.config.ts starts them in
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const FOLDER = 'test-results';
const FILE = path.join(FOLDER, 'timings.json');

/** @typedef {{ passed: number, failed: number, skipped: number }} Counts */
/** @typedef {{ tier: string, file: string, seconds: number, tests: Counts }} FileTiming */
/** @typedef {{ name: string, seconds: number }} StageTiming */
/** @typedef {{ stages: StageTiming[], files: FileTiming[] }} Timings */

/** @returns {Timings} */
export function readTimings() {
  if (!existsSync(FILE)) return { stages: [], files: [] };
  return JSON.parse(readFileSync(FILE, 'utf8'));
}

/**
 * Read, change, write whole, under a lock folder (mkdir is atomic): the e2e and engine tiers run side
 * by side and both write as they go. A lock older than 10 s is a writer that died holding it.
 */
function update(/** @type {(t: Timings) => void} */ change) {
  mkdirSync(FOLDER, { recursive: true });
  const lock = `${FILE}.lock`;
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      if (tries > 500) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    const timings = readTimings();
    change(timings);
    writeFileSync(`${FILE}.${process.pid}.tmp`, `${JSON.stringify(timings, null, 1)}\n`);
    renameSync(`${FILE}.${process.pid}.tmp`, FILE);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export function recordStage(/** @type {string} */ name, /** @type {number} */ seconds) {
  update((t) => {
    t.stages = t.stages.filter((s) => s.name !== name);
    t.stages.push({ name, seconds: Math.round(seconds) });
  });
}

/** Replaces what `tiers` recorded before (a tier run again replaces its files). */
export function recordFiles(/** @type {string[]} */ tiers, /** @type {FileTiming[]} */ files) {
  update((t) => {
    t.files = t.files.filter((f) => !tiers.includes(f.tier)).concat(files);
  });
}

/** Adds one file's result to its tier (the engine journeys record as they go). */
export function addFile(/** @type {FileTiming} */ file) {
  update((t) => {
    t.files = t.files.filter((f) => !(f.tier === file.tier && f.file === file.file)).concat(file);
  });
}

const pad = (/** @type {string} */ s, /** @type {number} */ n) => s.padEnd(n);
const num = (/** @type {number} */ n, /** @type {number} */ w) => String(n).padStart(w);

export function report() {
  const { stages, files } = readTimings();
  const lines = ['', 'Stages (seconds)'];
  let total = 0;
  for (const { name, seconds } of stages) {
    lines.push(`  ${pad(name, 22)}${num(seconds, 6)}`);
    total += seconds;
  }
  lines.push(`  ${pad('total', 22)}${num(total, 6)}`, '', 'Tests per tier (passed / failed / skipped)');
  const tiers = [...new Set(files.map((f) => f.tier))];
  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const tier of tiers) {
    const own = files.filter((f) => f.tier === tier);
    const c = { passed: 0, failed: 0, skipped: 0 };
    for (const f of own)
      for (const k of /** @type {const} */ (['passed', 'failed', 'skipped'])) c[k] += f.tests[k];
    for (const k of /** @type {const} */ (['passed', 'failed', 'skipped'])) sum[k] += c[k];
    const seconds = own.reduce((s, f) => s + f.seconds, 0);
    lines.push(
      `  ${pad(tier, 14)}${num(c.passed, 5)} /${num(c.failed, 3)} /${num(c.skipped, 3)}  in ${num(own.length, 3)} files, ${num(Math.round(seconds), 5)} s of file time`,
    );
  }
  lines.push('', 'The 15 slowest files (seconds)');
  for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 15))
    lines.push(`  ${num(Math.round(f.seconds), 5)}  ${pad(f.tier, 12)}${f.file}`);
  // The plain closing line CI reads, over every tier.
  lines.push('', `${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
  console.log(lines.join('\n'));
}

/** The vitest files' times by `project:file`, for the order of the next runs (vitest.config.ts). */
function saveFileTimes() {
  const times = Object.fromEntries(
    readTimings()
      .files.filter((f) => !['e2e', 'engines'].includes(f.tier))
      .sort((a, b) => b.seconds - a.seconds)
      .map((f) => [`${f.tier}:${f.file}`, Math.round(f.seconds)]),
  );
  writeFileSync('test/file-times.json', `${JSON.stringify(times, null, 1)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [command, name, seconds] = process.argv.slice(2);
  if (command === 'stage' && name && seconds) recordStage(name, Number(seconds));
  else if (command === 'report') report();
  else if (command === 'reset') rmSync(FILE, { force: true });
  else if (command === 'save') saveFileTimes();
  else {
    console.error('usage: test-timings.mjs stage NAME SECONDS | report | reset | save');
    process.exit(2);
  }
}
