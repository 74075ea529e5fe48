import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nginxSite } from '../../src/server/media/delivery/nginx-config';
import { freePort } from './processes';

export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export type NginxSite =
  /** nginx serving DATA_DIR/media/videos at /stream/videos/ with no checks (the benchmark's yardstick). */
  | { kind: 'static'; videosDir: string }
  /** The SEGMENT_DELIVERY=nginx site `npm run cli -- nginx:config` prints, in front of Lectern. */
  | { kind: 'delivery'; videosDir: string; lectern: string; secret: string };

async function siteConfig(site: NginxSite, listen: string): Promise<string> {
  if (site.kind === 'static') {
    return `server {
    listen ${listen};
    location /stream/videos/ {
        alias ${site.videosDir}/;
        sendfile on;
        tcp_nopush on;
        types { video/mp2t ts; application/vnd.apple.mpegurl m3u8; }
    }
}`;
  }
  return nginxSite({ ...site, listen });
}

/**
 * The main context every throwaway nginx starts with: `dir` holds its pid and error log; root
 * (containers) runs its workers as root so they read the test's files.
 */
export function nginxMain(
  dir: string,
  o: { workers?: number | 'auto'; errorLevel?: string; connections?: number; modules?: string[] } = {},
): string {
  return `${(o.modules ?? []).map((m) => `load_module /usr/lib/nginx/modules/ngx_${m}_module.so;\n`).join('')}
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes ${o.workers ?? 1};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log ${o.errorLevel ?? 'warn'};
events { worker_connections ${o.connections ?? 1024}; }`;
}

/** A throwaway nginx on a loopback port with a generated config; `stop()` ends it and removes its folder. */
export async function startNginx(site: NginxSite, options: { workers?: number | 'auto' } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'lectern-nginx-'));
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(dir, sub));
  const port = await freePort();
  const listen = `127.0.0.1:${port}`;
  const config = `
${nginxMain(dir, { workers: options.workers ?? 'auto', connections: 4096 })}
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    default_type application/octet-stream;
${await siteConfig(site, listen)}
}
`;
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, config);
  const child: ChildProcess = spawn(NGINX_PATH, ['-p', dir, '-c', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = `http://${listen}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `nginx exited: ${stderr || (await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => ''))}`,
      );
    if (
      await fetch(`${url}/`).then(
        (r) => (r.body?.cancel(), true),
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await new Promise((r) => child.once('exit', r));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
