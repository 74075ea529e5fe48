import { execFile } from 'node:child_process';
import { statfs } from 'node:fs/promises';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { schemaState } from '../db/migration-state';
import type { HealthCheck } from './readiness';

/** Below this, DATA_DIR cannot take an upload's scratch copy or ffmpeg's output: not ready. */
export const DISK_FAIL_BYTES = 1024 ** 3;

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** The database answers a query. */
export function databaseCheck(ctx: Pick<AppContext, 'db'>): HealthCheck {
  return { name: 'database', probe: async () => void (await ctx.db.execute(sql`select 1`)) };
}

/** Every migration of this code is applied, and none the code does not know (a newer version's). */
export function migrationsCheck(ctx: Pick<AppContext, 'db'>): HealthCheck {
  return {
    name: 'migrations',
    async probe() {
      const { pending, unknown } = await schemaState(ctx.db);
      if (unknown)
        throw new Error(`the database has ${unknown} migration(s) newer than this code: upgrade this node`);
      if (pending.length)
        throw new Error(
          `${pending.length} migration(s) not applied, from ${pending[0]!.tag}: restart to apply`,
        );
    },
  };
}

/**
 * The media store takes a write, gives it back and deletes it: the whole path an upload takes.
 * Run at most every 10 s (on a bucket it is three requests), and on this node's own key.
 */
export function storeCheck(ctx: Pick<AppContext, 'media'>): HealthCheck {
  const key = `health/${hostname()}-${process.pid}.probe`;
  return {
    name: 'store',
    cacheMs: 10_000,
    async probe() {
      const store = ctx.media.current;
      const written = `${Date.now()}`;
      await store.put(key, Buffer.from(written), { contentType: 'text/plain' });
      const read = await store.read(key);
      const pieces: Buffer[] = [];
      for await (const piece of read?.body ?? []) pieces.push(piece as Buffer);
      if (Buffer.concat(pieces).toString() !== written)
        throw new Error(`${store.kind} store gave back other bytes`);
      await store.delete(key);
    },
  };
}

/** The shared counters' Redis answers PING (only with REDIS_URL). */
export function redisCheck(ctx: Pick<AppContext, 'rateCounter'>): HealthCheck {
  return { name: 'redis', probe: () => ctx.rateCounter.ping() };
}

/**
 * ffmpeg and ffprobe start (where jobs run); checked once a minute, a process start each. It asks
 * whether the tools are there and work, not how fast a busy node starts a process: on a loaded
 * machine two starts took over the 3 s every other check has, and the node was then unready for the
 * minute the result is kept. So 10 s, 5 s a tool.
 */
export function ffmpegCheck(config: Pick<AppContext['config'], 'ffmpegPath' | 'ffprobePath'>): HealthCheck {
  const version = (command: string, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) =>
      execFile(command, ['-version'], { signal, timeout: 5_000 }, (error) =>
        error ? reject(new Error(`${command} -version failed: ${error.message}`)) : resolve(),
      ),
    );
  return {
    name: 'ffmpeg',
    cacheMs: 60_000,
    timeoutMs: 10_000,
    async probe(signal) {
      await version(config.ffmpegPath, signal);
      await version(config.ffprobePath, signal);
    },
  };
}

/** Free space in DATA_DIR (uploads' scratch, ffmpeg's output, the outbox, the embedded database). */
export async function freeBytes(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
}

export function diskCheck(config: Pick<AppContext['config'], 'dataDir'>): HealthCheck {
  return {
    name: 'disk',
    async probe() {
      const free = await freeBytes(config.dataDir);
      if (free < DISK_FAIL_BYTES)
        throw new Error(`${gb(free)} free in DATA_DIR, under ${gb(DISK_FAIL_BYTES)}`);
    },
  };
}
