import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import { ensureFirstAdmin } from './accounts/first-admin';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseInUseError } from './db/embedded-lock';
import { seedDemo, type DemoAccounts } from './demo-seed';
import { users } from './db/schema';
import { appUrl, showFirstScreen, type StartFacts } from './first-screen';
import { jobHandlers, jobTypeLimits, recurringJobs } from './jobs/registry';
import { JobRunner } from './jobs/runner';
import { addDemoLectures } from './media/demo-lectures';
import { openRuntime } from './runtime';

/** dist/server/main.js serves dist/web; run from source (src/web holds no build), it serves dist/web if built. */
function webRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.resolve(here, '../web');
  return existsSync(path.join(beside, 'assets')) ? beside : path.resolve('dist/web');
}

/**
 * WEB_CONCURRENCY > 1: this process forks that many HTTP processes sharing PORT (each a ROLE=web
 * node on the same PostgreSQL) and keeps the job runner itself, restarting an HTTP process that dies.
 */
async function primary(config: ReturnType<typeof loadConfig>): Promise<void> {
  const runtime = await openRuntime(config);
  const { ctx } = runtime;
  const admin = await ensureFirstAdmin(ctx);
  const runner =
    config.role === 'all' ? new JobRunner(ctx, jobHandlers(ctx), { typeLimits: jobTypeLimits }) : undefined;
  if (runner) {
    await runner.start();
    for (const [type, everyMs] of recurringJobs) runner.every(type, everyMs);
  }
  const shutdown = onShutdown(ctx.logger, async () => {
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    await Promise.all(
      workers.map((w) => new Promise((resolve) => (w.once('exit', resolve), w.process.kill('SIGTERM')))),
    );
    await runner?.stop();
    await runtime.close();
  });
  const fork = () => cluster.fork({ ROLE: 'web' });
  cluster.on('exit', (worker, code) => {
    if (shutdown.stopping()) return;
    ctx.logger.warn({ pid: worker.process.pid, code }, 'an HTTP process exited; starting another');
    fork();
  });
  const listening = new Promise((resolve) => cluster.once('listening', resolve));
  for (let i = 0; i < config.webConcurrency; i++) fork();
  await listening;
  ctx.logger.info(
    `WEB_CONCURRENCY=${config.webConcurrency}: HTTP processes share port ${config.port}${config.redisUrl ? '' : '; without REDIS_URL each counts sign-in attempts on its own'}`,
  );
  showFirstScreen(config, ctx.logger, {
    createdAdmin: admin ?? undefined,
    url: `http://${config.host}:${config.port}`,
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.webConcurrency > 1 && config.role !== 'worker' && cluster.isPrimary) return primary(config);
  const runtime = await openRuntime(config);
  const { ctx } = runtime;

  let facts: Omit<StartFacts, 'url'> = {};
  if (config.role !== 'worker') {
    const [{ users: userCount }] = (await ctx.db.select({ users: count() }).from(users)) as [
      { users: number },
    ];
    const admin = await ensureFirstAdmin(ctx);
    let demo: DemoAccounts | undefined;
    let lectures = 0;
    if (userCount === 0 && config.seedDemo) {
      demo = await seedDemo(ctx);
      // Packaged by the job runner moments after it starts (below).
      lectures = await addDemoLectures(ctx, {
        courseId: demo.courseId,
        studentUsername: demo.student.username,
      });
    }
    facts = {
      createdAdmin: admin ?? undefined,
      demo: demo && { ...demo.student, lectures, courseName: demo.courseName },
    };
  }

  const runner =
    config.role === 'web' ? undefined : new JobRunner(ctx, jobHandlers(ctx), { typeLimits: jobTypeLimits });
  // A separate worker (ROLE=web here) finds queued packaging at its next poll instead.
  const wakeJobs = () => runner?.wake();
  const app = config.role === 'worker' ? undefined : await buildApp(ctx, { webRoot: webRoot(), wakeJobs });
  if (runner) {
    await runner.start();
    for (const [type, everyMs] of recurringJobs) runner.every(type, everyMs);
  }
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    // Forked by a WEB_CONCURRENCY primary, which shows it once.
    if (cluster.isPrimary)
      showFirstScreen(config, ctx.logger, { ...facts, url: appUrl(app.server.address() as AddressInfo) });
  } else {
    ctx.logger.info('media worker started');
  }

  onShutdown(ctx.logger, async () => {
    await app?.close();
    await runner?.stop();
    await runtime.close();
  });
}

/** On SIGTERM or SIGINT: `close` once, then exit 0 (1 when it takes over 15 s). */
function onShutdown(logger: FastifyBaseLogger, close: () => Promise<void>): { stopping: () => boolean } {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    await close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return { stopping: () => stopping };
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseInUseError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
