import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { adminAccountRoutes } from './accounts/admin-routes';
import { analyticsRoutes } from './analytics/routes';
import { captionRoutes } from './captions/routes';
import { playbackRoutes } from './playback/routes';
import { oneTimeCodeStore } from './accounts/one-time-codes';
import { sessionStore } from './accounts/sessions';
import { studentAccountRoutes } from './accounts/student-routes';
import type { AppContext } from './context';
import { courseAdminRoutes } from './courses/admin-routes';
import { courseStudentRoutes } from './courses/student-routes';
import { createAuth } from './plugins/auth';
import { progressRoutes } from './progress/routes';
import { installErrorHandler } from './plugins/error-handler';
import { installResponseCheck } from './http/response-check';
import { unregisteredRoutes } from './http/route-table';
import { installOpeningGate } from './plugins/opening-gate';
import { installOriginCheck } from './plugins/origin-check';
import { installSecurityHeaders } from './plugins/security-headers';
import { installWebApp } from './plugins/web-app';
import { streamRoutes } from './media/routes';
import { studentAdminRoutes } from './students/admin-routes';
import { thumbnailRoutes } from './thumbnails/routes';
import { videoStudentRoutes } from './videos/student-routes';
import { videoAdminRoutes } from './videos/admin-routes';

/** One route as Fastify registered it (HEAD twins of GET routes included). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on this app, in order: the authorization matrix checks it covers them all. */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

export interface AppOptions {
  /** Folder of the built web app (dist/web); omitted in API-only tests. */
  webRoot?: string;
  /** Wakes this process's job runner after a request queued work (packaging); omitted when jobs run elsewhere. */
  wakeJobs?: () => void;
  /** Tests: every successful answer is checked against its route table entry (a mismatch is a 500). */
  checkResponses?: boolean;
}

/** Assembles the HTTP app: plugins first, then each domain's routes. Does not listen. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger,
    // Per-request log lines cost more than the segment they describe; errors are logged by the handler.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 4 * 1024 * 1024,
    return503OnClosing: true,
  });
  // First, so it sees every route registered after it, in any plugin scope.
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
  });

  installErrorHandler(app);
  if (options.checkResponses) installResponseCheck(app);
  await installSecurityHeaders(app);
  await app.register(cookie);
  installOriginCheck(app);

  const sessions = sessionStore(ctx.db);
  const codes = oneTimeCodeStore(ctx.db, ctx.signingKey);
  const auth = createAuth(sessions, ctx.clock);
  const deps = { ctx, auth, sessions, codes };

  await app.register(
    async (studentApi) => {
      installOpeningGate(studentApi, ctx);
      await studentApi.register(studentAccountRoutes, deps);
      await studentApi.register(videoStudentRoutes, deps);
      await studentApi.register(courseStudentRoutes, deps);
      await studentApi.register(progressRoutes, deps);
    },
    { prefix: '/api' },
  );

  await app.register(
    async (adminApi) => {
      await adminApi.register(adminAccountRoutes, deps);
      await adminApi.register(courseAdminRoutes, deps);
      await adminApi.register(videoAdminRoutes, deps);
      await adminApi.register(studentAdminRoutes, deps);
      await adminApi.register(analyticsRoutes, deps);
    },
    { prefix: '/api/admin' },
  );

  // Outside the opening gate: a student's access comes from the video's own rule.
  await app.register(captionRoutes, deps);
  await app.register(playbackRoutes, deps);
  await app.register(thumbnailRoutes, { ctx, auth });
  await app.register(streamRoutes, { prefix: '/stream', ctx, auth, wakeJobs: options.wakeJobs });

  await installWebApp(app, options.webRoot, ctx.config.productName);
  const missing = unregisteredRoutes(app);
  if (missing.length) throw new Error(`Routes in the table without a handler: ${missing.join(', ')}`);
  return app;
}
