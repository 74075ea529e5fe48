import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes';

const run = promisify(execFile);

/** Debian's server binaries: PG_BIN, else the newest /usr/lib/postgresql/<major>/bin. */
function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  return majors.map((v) => path.join(root, v, 'bin')).find((bin) => existsSync(path.join(bin, 'pg_ctl')));
}

export interface PrivatePostgres {
  port: number;
  /** A connection URL to `database` (default `postgres`) on this instance. */
  url(database?: string): string;
  /** `pg_ctl stop -m <mode>`: `fast` ends sessions cleanly, `immediate` is a crash (recovery at the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it (immediately) and deletes its folder. */
  destroy(): Promise<void>;
  /** The server log, for failure messages. */
  log(): Promise<string>;
}

/**
 * A throwaway PostgreSQL server of our own (never the machine's shared one, which other tests use):
 * initdb in a temp folder, a free loopback port, its socket in that folder. Debian's binaries refuse
 * to run as root, so as root they run as the `postgres` user. Answers a reason instead when this
 * machine cannot run one (no binaries, no `postgres` user).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres | { skip: string }> {
  const bin = postgresBin();
  if (!bin) return { skip: 'no PostgreSQL server binaries (set PG_BIN or install postgresql)' };
  const asRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (asRoot) {
    try {
      const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
      const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
      owner = { uid, gid };
    } catch {
      return { skip: 'running as root and there is no `postgres` user to run PostgreSQL as' };
    }
  }
  const tool = (name: string) => path.join(bin, name);
  const as = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', tool(name), ...args]) : run(tool(name), args);

  const dir = await mkdtemp(path.join(tmpdir(), 'lectern-pg-'));
  if (owner) await chown(dir, owner.uid, owner.gid);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  await as('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const port = await freePort();
  // Durability is not what these tests are about; fsync off keeps them quick on a busy disk.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const start = () =>
    as('pg_ctl', ['-D', data, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']).then(() => {});
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    as('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']).then(() => {});
  // If the test process dies without its afterAll, the server must not outlive it.
  const onExit = () => {
    try {
      const args = ['-D', data, '-m', 'immediate', 'stop'];
      if (asRoot)
        execFileSync('runuser', ['-u', 'postgres', '--', tool('pg_ctl'), ...args], { stdio: 'ignore' });
      else execFileSync(tool('pg_ctl'), args, { stdio: 'ignore' });
    } catch {
      // already stopped
    }
  };
  try {
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  process.once('exit', onExit);
  return {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop,
    start,
    async destroy() {
      process.off('exit', onExit);
      await stop('immediate').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
  };
}
