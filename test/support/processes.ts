import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Runs a TypeScript entry of ours (src/server/…) as a real Node process, as `npm run` would. */
function spawnTs(entry: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
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
  const child = spawnTs('src/server/cli.ts', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** `npm run cli -- <args>` as a child the caller may kill; `output.text` grows as it prints. */
export function startCli(args: string[], env: Record<string, string>) {
  const child = spawnTs('src/server/cli.ts', args, env);
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

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything printed so far. */
  output(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts src/server/main.ts as a real process on a free port (or env.PORT) and waits until it answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  // A given PORT: a node restarted where its balancer expects it.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawnTs('src/server/main.ts', [], { PORT: String(port), HOST: '127.0.0.1', ...env });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited early:\n${output}`);
    const ok = await fetch(`${url}/api/time`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
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
