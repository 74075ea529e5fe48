import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import { ensureFirstAdmin } from './accounts/first-admin';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseInUseError } from './db/embedded-lock';
import { SchemaTooNewError } from './db/migration-state';
import { createReadiness } from './wiring/health-registry';
import { onShutdown } from './health/shutdown';
import { seedDemo, type DemoAccounts } from './demo-seed';
import { users } from './db/schema';
import { appUrl, showFirstScreen, type StartFacts } from './first-screen';
import { jobHandlers, jobLanes, recurringJobs, scheduledChecks } from './wiring/job-registry';
import { JobRunner } from './jobs/runner';
import { LiveIngest } from './live/ingest';
import { createMediaTools } from './storage/ffmpeg';
import { addDemoLectures } from './media/demo-lectures';
import { answerMetricsRequests, clusterMetrics } from './metrics/cluster';
import { startMetricsListener, type MetricsListener } from './metrics/listener';
import { openRuntime, type Runtime } from './runtime';

/**
 * Stops listening and resolves once the requests in flight have finished. Kept-alive connections
 * still idle a second after the listener closed (every answer since SIGTERM closed its own) are
 * closed then, and every second after.
 */
async function closeHttp(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 1000);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

/** dist/server/main.js serves dist/web; run from source (src/web holds no build), it serves dist/web if built. */
function webRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.resolve(here, '../web');
  return existsSync(path.join(beside, 'assets')) ? beside : path.resolve('dist/web');
}

/**
 * Starts the job runner (if this process has one) with its recurring jobs and scheduled checks, and
 * beside it the live classes' SRT listeners (docs/LIVE.md). Returns the listeners, to stop on shutdown.
 */
async function startBackgroundWork(
  ctx: Runtime['ctx'],
  config: ReturnType<typeof loadConfig>,
  runner: JobRunner | undefined,
): Promise<LiveIngest | undefined> {
  if (!runner) return undefined;
  await runner.start();
  for (const [type, everyMs] of recurringJobs) runner.every(type, everyMs);
  for (const check of scheduledChecks(ctx)) runner.repeat(check);
  const live = config.live.ingest ? new LiveIngest(ctx, createMediaTools(config)) : undefined;
  live?.start();
  return live;
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
    config.role === 'all' ? new JobRunner(ctx, jobHandlers(ctx), jobLanes) : undefined;
  const live = await startBackgroundWork(ctx, config, runner);
  // METRICS_PORT belongs to this process: it gathers every HTTP process's metrics with its own.
  const metricsListener = config.metrics.port
    ? await startMetricsListener({ port: config.metrics.port, host: config.metrics.host }, () =>
        clusterMetrics(ctx.metrics.registry),
      )
    : undefined;
  // Each HTTP process drains itself on SIGTERM (its readiness 503, then its in-flight requests).
  const shutdown = onShutdown({
    logger: ctx.logger,
    drainSeconds: 0,
    // A little after the HTTP processes' own deadline, so theirs is the one that cuts.
    timeoutSeconds: config.shutdownTimeoutSeconds + 2,
    stopJobs: async () => {
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      await Promise.all([
        runner?.stop(),
        live?.stop(),
        ...workers.map((w) => new Promise((resolve) => (w.once('exit', resolve), w.process.kill('SIGTERM')))),
      ]);
    },
    closeRest: async () => {
      await metricsListener?.close();
      await runtime.close();
    },
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
    url: appUrl({ address: config.host, port: config.port }, config.tls !== undefined),
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
    config.role === 'web' ? undefined : new JobRunner(ctx, jobHandlers(ctx), jobLanes);
  // A separate worker (ROLE=web here) finds queued packaging at its next poll instead.
  const wakeJobs = () => runner?.wake();
  const readiness = createReadiness(ctx);
  const app =
    config.role === 'worker'
      ? undefined
      : await buildApp(ctx, { webRoot: webRoot(), wakeJobs, readiness, gracefulClose: true });
  const live = await startBackgroundWork(ctx, config, runner);
  let metricsListener: MetricsListener | undefined;
  if (cluster.isWorker) answerMetricsRequests(ctx.metrics.registry);
  else if (config.metrics.port)
    metricsListener = await startMetricsListener(
      { port: config.metrics.port, host: config.metrics.host },
      async () => ({
        contentType: ctx.metrics.registry.contentType,
        body: await ctx.metrics.registry.metrics(),
      }),
    );
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    // Forked by a WEB_CONCURRENCY primary, which shows it once.
    if (cluster.isPrimary)
      showFirstScreen(config, ctx.logger, {
        ...facts,
        url: appUrl(app.server.address() as AddressInfo, config.tls !== undefined),
      });
  } else {
    ctx.logger.info('media worker started');
  }

  onShutdown({
    logger: ctx.logger,
    drainSeconds: config.shutdownDrainSeconds,
    timeoutSeconds: config.shutdownTimeoutSeconds,
    readiness: app && readiness,
    stopJobs: runner && (() => Promise.all([runner.stop(), live?.stop()]).then(() => undefined)),
    closeHttp: app && (() => closeHttp(app)),
    cutHttp: app && (() => app.server.closeAllConnections()),
    closeRest: async () => {
      await metricsListener?.close();
      await runtime.close();
    },
  });
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DatabaseInUseError ||
    error instanceof SchemaTooNewError
  ) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
