import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedMigratedPglite } from './school-image';

/** The newest change to the code the server bundle is built from (src/server, src/contract). */
function newestSource(): number {
  let newest = 0;
  for (const folder of ['src/server', 'src/contract'])
    for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' }))
      newest = Math.max(newest, statSync(path.join(folder, file)).mtimeMs);
  return newest;
}

let bundleIsFresh: boolean | undefined;

/**
 * V8 flags of the servers and CLI runs the tests start. `--liftoff-only`: PGlite's 9 MB of
 * WebAssembly run as V8's baseline compiler makes it, without recompiling the hot functions with the
 * optimizing one in the background. A test's process lives seconds and answers a few hundred queries,
 * so that recompiling never paid for itself: a seeded server's first 12 s took 4.4 CPU-seconds with
 * it off against 6.9 (docs/TESTING.md). Nor for the browser tiers' servers, which serve minutes of
 * playback: three e2e specs' servers 18.3 and 15.6 CPU-seconds without it, 12.4 and 12.6 with it.
 * Same code, same answers; only speed differs, and speed is judged by the benchmarks and the rush,
 * which start their servers as `npm start` does.
 */
export const TEST_NODE_FLAGS = (process.env.TEST_NODE_FLAGS ?? '--liftoff-only').split(' ').filter(Boolean);

/**
 * How to start a server entry of ours (`main` or `cli`) as a real Node process: the built bundle
 * (dist/server, what `npm start` runs) when it is newer than every source file, as in `npm test`
 * where the build comes first; else the TypeScript source through tsx, as `npm run cli` does. The
 * bundle starts in half the CPU time of tsx compiling the server's modules, for each of the
 * hundred-odd processes the tests start.
 */
export function serverCommand(entry: 'main' | 'cli'): string[] {
  bundleIsFresh ??= (() => {
    try {
      return statSync('dist/server/main.js').mtimeMs > newestSource();
    } catch {
      return false;
    }
  })();
  return [
    ...TEST_NODE_FLAGS,
    ...(bundleIsFresh ? [`dist/server/${entry}.js`] : ['--import', 'tsx', `src/server/${entry}.ts`]),
  ];
}

/** Runs a server entry of ours (serverCommand) as a real Node process, as `npm run` would. */
function spawnServer(entry: 'main' | 'cli', args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...serverCommand(entry), ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- <args>` with the given environment; resolves when it exits. */
export function runCli(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  const child = spawnServer('cli', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** `npm run cli -- <args>` as a child the caller may kill; `output.text` grows as it prints. */
export function startCli(args: string[], env: Record<string, string>) {
  const child = spawnServer('cli', args, env);
  const output = { text: '' };
  child.stdout?.on('data', (d) => (output.text += d));
  child.stderr?.on('data', (d) => (output.text += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output, exited };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Polls GET `url`/api/time every `intervalMs` until it answers 200 and `ready()` holds: `'ready'`;
 * `'exited'` when the child ends first, `'timeout'` after `timeoutMs`. The caller says why and cleans up.
 */
export async function waitForServer(
  url: string,
  child: ChildProcess,
  {
    timeoutMs,
    intervalMs,
    ready = () => true,
  }: { timeoutMs: number; intervalMs: number; ready?: () => boolean },
): Promise<'ready' | 'exited' | 'timeout'> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return 'exited';
    const ok = await fetch(`${url}/api/time`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && ready()) return 'ready';
    if (Date.now() > deadline) return 'timeout';
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything printed so far. */
  output(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the server (serverCommand) as a real process on a free port (or env.PORT) and waits until it answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  // A given PORT: a node restarted where its balancer expects it.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawnServer('main', [], { PORT: String(port), HOST: '127.0.0.1', ...env });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const started = await waitForServer(url, child, { timeoutMs: 60_000, intervalMs: 150 });
  if (started === 'exited') throw new Error(`server exited early:\n${output}`);
  if (started === 'timeout') {
    child.kill('SIGKILL');
    throw new Error(`server did not start in time:\n${output}`);
  }
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Children to end when this process ends, however it ends: a server left running holds its port and a core. */
const children = new Set<ChildProcess>();
let exitHookSet = false;
function stopOnExit(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (exitHookSet) return;
  exitHookSet = true;
  process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));
}

export interface BuiltServer {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything printed so far. */
  output(): string;
  /** SIGTERM, wait for the exit, remove the data folder. */
  stop(): Promise<void>;
}

/**
 * The built server (`dist/server/main.js`, or `main`) as its own process on a free port, with a
 * throwaway DATA_DIR (`prefix` names it), the in-memory database, no demo content and open all day;
 * `env` adds to or overrides that. Resolves once it answers; throws with its output otherwise.
 */
export async function startBuiltServer({
  env = {},
  main = 'dist/server/main.js',
  prefix,
  // A PGlite first start (initdb in process) takes seconds on a quiet machine, a minute on a busy one.
  timeoutMs = 120_000,
  intervalMs = 200,
  cwd,
  unset = [],
  ready,
}: {
  env?: Record<string, string>;
  main?: string;
  prefix: string;
  timeoutMs?: number;
  intervalMs?: number;
  /** Where to run it (another build's root); this checkout by default. */
  cwd?: string;
  /** Variables of this process's environment the server must not inherit (they win over the defaults too). */
  unset?: string[];
  /** Started only once this also holds of its output (a line the start prints last). */
  ready?: (output: string) => boolean;
}): Promise<BuiltServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  // Unless the caller names a database (or runs another build, whose schema may differ), the server
  // opens a copy of the migrated embedded school in its DATA_DIR, the quick start's default engine,
  // rather than running initdb and every migration.
  const seeded = cwd === undefined && env.DATABASE_URL === undefined && !unset.includes('DATABASE_URL');
  if (seeded) await seedMigratedPglite(dataDir);
  const port = await freePort();
  const inherited = { ...process.env };
  for (const name of unset) delete inherited[name];
  const serverEnv: NodeJS.ProcessEnv = {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    OPEN_HOURS: 'always',
    LOG_LEVEL: 'warn',
    // Reading every uploaded lecture's screen with Tesseract would compete for the CI's two cores
    // with the browser; a spec about search turns it on.
    SEARCH_OCR: 'off',
    ...env,
  };
  for (const name of unset) delete serverEnv[name];
  if (seeded) delete serverEnv.DATABASE_URL;
  const child = spawn(process.execPath, [...TEST_NODE_FLAGS, main], {
    cwd,
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stopOnExit(child);
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const started = await waitForServer(url, child, {
    timeoutMs,
    intervalMs,
    ready: ready && (() => ready(output)),
  });
  if (started !== 'ready') {
    if (started === 'timeout') child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    const why = started === 'exited' ? `exited with ${child.exitCode}` : 'did not start in time';
    throw new Error(`Lectern ${why}:\n${output}`);
  }
  return { url, dataDir, child, output: () => output, stop };
}
