import { existsSync } from 'node:fs';
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

async function main(): Promise<void> {
  const config = loadConfig();
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
    showFirstScreen(config, ctx.logger, { ...facts, url: appUrl(app.server.address() as AddressInfo) });
  } else {
    ctx.logger.info('media worker started');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    await app?.close();
    await runner?.stop();
    await runtime.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseInUseError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
