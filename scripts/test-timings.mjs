// Where a test run's time went: stages (`.ci/run`, `npm test`) and test files (vitest, Playwright, the
// engine journeys) write here, and `report` prints the table docs/TESTING.md compares against.
//   node scripts/test-timings.mjs mark PID             prints a CPU mark of PID (a shell's $$) for `stage`
//   node scripts/test-timings.mjs stage NAME SECONDS [PID MARK]
//                                                      records a stage measured by a shell (with the CPU
//                                                      PID's finished children used since MARK)
//   node scripts/test-timings.mjs report               prints stages, counts per tier, slowest files
//   node scripts/test-timings.mjs reset                starts a new run's record
//   node scripts/test-timings.mjs save                 keeps the vitest files' times in test/file-times.json,
//                                                      the order vitest.config.ts starts them in
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const FOLDER = 'test-results';
const FILE = path.join(FOLDER, 'timings.json');

/** @typedef {{ passed: number, failed: number, skipped: number }} Counts */
/** @typedef {{ tier: string, file: string, seconds: number, cpu?: number, tests: Counts }} FileTiming */
/** @typedef {{ name: string, seconds: number, cpu?: number, busy?: number }} StageTiming */
/** @typedef {{ children: number, busy: number, total: number }} CpuMark */
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

/**
 * Where the CPU went, to tell a stage that computes from one that waits: the CPU seconds of `pid`'s
 * finished children and theirs (the kernel adds a child's time to its parent's when it is reaped:
 * a tier's workers, servers, ffmpeg runs and browsers), and the whole machine's busy and total ticks
 * (what ran outside those processes, such as a server's orphaned ffmpeg, or another job sharing it).
 * @returns {CpuMark}
 */
export function cpuMark(pid = process.pid) {
  const own = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = own.slice(own.lastIndexOf(')') + 2).split(' ');
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  // cutime and cstime (fields 16 and 17 of proc(5)), in USER_HZ ticks (100 a second on Linux)
  return {
    children: (Number(fields[13]) + Number(fields[14])) / 100,
    busy: total - ticks[3] - ticks[4],
    total,
  };
}

/**
 * The CPU seconds this process and its reaped children have used: a Vitest worker runs one file at a
 * time, so the difference across a file is what the file cost (its own code, the app in process,
 * PGlite, and the servers, CLI runs and ffmpeg it started and waited for), whatever ran beside it.
 */
export function processCpu() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6 + cpuMark().children;
}

const FILE_CPU = path.join(FOLDER, 'file-cpu.ndjson');

/** A worker's line for the reporter (appends are whole lines, whichever worker writes). */
export function recordFileCpu(/** @type {string} */ file, /** @type {number} */ cpu) {
  mkdirSync(FOLDER, { recursive: true });
  appendFileSync(FILE_CPU, `${JSON.stringify({ file, cpu: Math.round(cpu * 10) / 10 })}\n`);
}

/** The CPU seconds the workers recorded by file, read once and cleared (the next run starts empty). */
export function takeFileCpu() {
  if (!existsSync(FILE_CPU)) return new Map();
  const lines = readFileSync(FILE_CPU, 'utf8').split('\n').filter(Boolean);
  rmSync(FILE_CPU, { force: true });
  return new Map(lines.map((line) => /** @type {[string, number]} */ (Object.values(JSON.parse(line)))));
}

/** `since`: a cpuMark taken at the stage's start by the process that ran it (`pid`). */
export function recordStage(
  /** @type {string} */ name,
  /** @type {number} */ seconds,
  /** @type {CpuMark | undefined} */ since = undefined,
  pid = process.pid,
) {
  /** @type {StageTiming} */
  const stage = { name, seconds: Math.round(seconds) };
  if (since) {
    const now = cpuMark(pid);
    stage.cpu = Math.round(now.children - since.children);
    stage.busy =
      now.total > since.total ? Math.round((100 * (now.busy - since.busy)) / (now.total - since.total)) : 0;
  }
  update((t) => {
    t.stages = t.stages.filter((s) => s.name !== name);
    t.stages.push(stage);
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
  const lines = [
    '',
    'Stages: seconds; CPU seconds used by the stage (its processes); how busy the whole machine was (all cores)',
  ];
  let total = 0;
  let cpu = 0;
  for (const stage of stages) {
    const own = stage.cpu === undefined ? '' : `${num(stage.cpu, 7)} CPU s  ${num(stage.busy ?? 0, 3)}% busy`;
    lines.push(`  ${pad(stage.name, 22)}${num(stage.seconds, 6)}  ${own}`.trimEnd());
    total += stage.seconds;
    cpu += stage.cpu ?? 0;
  }
  lines.push(
    `  ${pad('total', 22)}${num(total, 6)}  ${num(cpu, 7)} CPU s`,
    '',
    'Tests per tier (passed / failed / skipped)',
  );
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
  lines.push('', 'The 15 slowest files (seconds; CPU seconds of a Vitest file, its processes included)');
  for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 15)) {
    const cpu = f.cpu === undefined ? '' : `${num(Math.round(f.cpu), 5)} CPU s`;
    lines.push(`  ${num(Math.round(f.seconds), 5)}  ${pad(cpu, 13)}${pad(f.tier, 12)}${f.file}`);
  }
  const costly = files.filter((f) => f.cpu !== undefined).sort((a, b) => (b.cpu ?? 0) - (a.cpu ?? 0));
  if (costly.length) {
    const all = costly.reduce((s, f) => s + (f.cpu ?? 0), 0);
    lines.push(
      '',
      `The 15 Vitest files that cost the most CPU (of ${Math.round(all)} CPU s measured in files)`,
    );
    for (const f of costly.slice(0, 15))
      lines.push(
        `  ${num(Math.round(f.cpu ?? 0), 5)} CPU s  ${num(Math.round(f.seconds), 5)} s  ${pad(f.tier, 12)}${f.file}`,
      );
  }
  // What failed, by name, where the end of a long log is all a reader may get.
  const failedFiles = files.filter((f) => f.tests.failed > 0);
  if (failedFiles.length) {
    lines.push('', 'Files with a failed test');
    for (const f of failedFiles) lines.push(`  ${pad(f.tier, 14)}${num(f.tests.failed, 3)}  ${f.file}`);
  }
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
  writeFileSync('test/file-times.json', `${JSON.stringify(times, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [command, name, seconds, pid, mark] = process.argv.slice(2);
  if (command === 'mark' && name) console.log(JSON.stringify(cpuMark(Number(name))));
  else if (command === 'stage' && name && seconds)
    recordStage(name, Number(seconds), mark ? JSON.parse(mark) : undefined, pid ? Number(pid) : undefined);
  else if (command === 'report') report();
  else if (command === 'reset') rmSync(FILE, { force: true });
  else if (command === 'save') saveFileTimes();
  else {
    console.error('usage: test-timings.mjs mark PID | stage NAME SECONDS [PID MARK] | report | reset | save');
    process.exit(2);
  }
}
