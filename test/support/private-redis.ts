import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './processes';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export interface PrivateRedis {
  url: string;
  /** SIGKILL: the server is gone, as after a crash. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing on disk). */
  start(): Promise<void>;
}

/**
 * A throwaway redis-server of our own on a free loopback port (never the machine's shared one),
 * keeping nothing on disk. Answers a reason instead when there is no redis-server binary.
 */
export async function startPrivateRedis(): Promise<PrivateRedis | { skip: string }> {
  if (!existsSync(REDIS_SERVER)) return { skip: `no ${REDIS_SERVER} (Debian package redis-server)` };
  const port = await freePort();
  let child: ChildProcess | undefined;
  const kill = () => child?.kill('SIGKILL');
  process.once('exit', kill);
  const answers = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
      socket.on('error', () => resolve(false));
    });
  const start = async () => {
    child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 100 && !(await answers()); i++) await new Promise((r) => setTimeout(r, 50));
    if (!(await answers())) throw new Error(`redis-server did not start on port ${port}`);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const gone = new Promise((r) => running.once('exit', r));
      running.kill('SIGKILL');
      await gone;
    },
    start,
  };
}
