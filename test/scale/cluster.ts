import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { NGINX_PATH, nginxMain } from '../support/nginx';
import { freePort, serverCommand } from '../support/processes';

export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `ROLE=worker` (serverCommand, as `npm run worker` runs the build): ready once it says so. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, serverCommand('main'), {
    env: { ...process.env, LOG_LEVEL: 'info', SEARCH_OCR: 'off', ...env, ROLE: 'worker' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!output.includes('media worker started')) {
    if (child.exitCode !== null) throw new Error(`worker exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export interface Balancer {
  url: string;
  /** Upstream address of every request so far ($upstream_addr, one line each). */
  upstreams(): Promise<string[]>;
  /** nginx's error log so far (why a request got a 502). */
  errors(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * nginx round-robin over `nodes` (HOST:PORT), proxying as the `nginx:config` site does, uploads
 * included: nothing sticks to a node (an upload's one-writer lease lives in the database). Logs the
 * upstream of each request so a test can see both nodes served.
 */
export async function startBalancer(nodes: string[]): Promise<Balancer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lectern-lb-'));
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(dir, sub));
  const port = await freePort();
  const servers = nodes.map((n) => `        server ${n} max_fails=1 fail_timeout=5s;`).join('\n');
  const proxy = `
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_request_buffering off;
            # A node that is restarting refuses connections (or answers 503 while closing): nginx
            # tries the other. GET/HEAD are retried even when sent; a POST only when it never reached
            # the node (connection refused), never twice (an upload chunk resumes by its offset instead).
            proxy_next_upstream error timeout http_502 http_503 http_504;`;
  const config = `
${nginxMain(dir)}
http {
    log_format upstream '$upstream_addr $status $request_method $uri';
    access_log ${dir}/access.log upstream;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    upstream lectern {
${servers}
        keepalive 32;
        # Idle upstream connections are closed by nginx well within a node's SHUTDOWN_DRAIN_SECONDS, so
        # none is left for the node to close under a request when its listener closes.
        keepalive_timeout 1s;
    }
    server {
        listen 127.0.0.1:${port};
        client_max_body_size 0;
        location / {
            proxy_pass http://lectern;${proxy}
        }
    }
}
`;
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, config);
  const child = spawn(NGINX_PATH, ['-p', dir, '-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (
    !(await fetch(`${url}/api/time`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `nginx did not start: ${stderr}${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    async upstreams() {
      const log = await readFile(path.join(dir, 'access.log'), 'utf8').catch(() => '');
      return log.split('\n').filter(Boolean);
    },
    errors: () => readFile(path.join(dir, 'error.log'), 'utf8').catch(() => ''),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await new Promise((r) => child.once('exit', r));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Why this machine cannot run the scale-out test, or undefined when it can. */
export async function missingInfrastructure(redisUrl: string): Promise<string | undefined> {
  if (!existsSync(NGINX_PATH)) return `no nginx at ${NGINX_PATH} (Debian package nginx, or set NGINX_PATH)`;
  if (!process.env.S3_ENDPOINT) return 'no S3 server (eval "$(../shared/tools/s3-server/start)")';
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `no Redis at ${redisUrl} (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    redis.disconnect();
  }
  return undefined;
}
