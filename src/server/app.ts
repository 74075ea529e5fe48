import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { adminAccountRoutes } from './accounts/admin-routes';
import { instructorAdminRoutes } from './accounts/instructor-routes';
import { analyticsRoutes } from './analytics/routes';
import { backupAdminRoutes } from './backup/admin-routes';
import { captionRoutes } from './captions/routes';
import { CompletionWatch, type CourseCompletionSubscriber } from './checkpoints/completion';
import { checkpointKeyHold, checkpointProgressGate } from './checkpoints/hold';
import { checkpointRoutes } from './checkpoints/routes';
import { issueCertificateOnCompletion } from './certificates/service';
import {
  certificateAdminRoutes,
  certificatePublicRoutes,
  certificateStudentRoutes,
} from './certificates/routes';
import { learningRoutes } from './learning/routes';
import { liveRoutes } from './live/routes';
import { liveAttendanceRoutes, withLiveJoin, withLivePlay } from './live/attendance-routes';
import { rtmpRoutes } from './live/rtmp';
import { installLiveMetrics } from './live/live-metrics';
import { playbackRoutes } from './playback/routes';
import { searchRoutes } from './search/routes';
import { traceRunRoutes } from './forensic/trace-run-routes';
import { oneTimeCodeStore } from './accounts/one-time-codes';
import { sessionStore } from './accounts/sessions';
import { studentAccountRoutes } from './accounts/student-routes';
import { splitRouteKey } from '../contract/route-kit';
import type { RouteKey } from '../contract/routes';
import type { TrustProxy } from './config';
import type { AppContext } from './context';
import { courseAdminRoutes } from './courses/admin-routes';
import { courseStudentRoutes } from './courses/student-routes';
import type { Readiness } from './health/readiness';
import { createReadiness } from './wiring/health-registry';
import { healthRoutes } from './health/routes';
import { createAuth } from './http/auth';
import { adminSignInRoutes } from './mfa/admin-routes';
import { progressRoutes } from './progress/routes';
import { installErrorHandler } from './http/error-handler';
import { installResponseCheck } from './http/response-check';
import { unregisteredRoutes } from './http/route-table';
import { installRequestMetrics, requestObserver } from './metrics/http-metrics';
import { metricsRoutes, playbackHealthRoutes } from './http/metrics-routes';
import { installOpeningGate } from './http/opening-gate';
import { installOriginCheck } from './http/origin-check';
import { installSecurityHeaders } from './http/security-headers';
import { segmentOrigins } from './media/delivery/segment-urls';
import { installWebApp } from './http/web-app';
import { streamRoutes } from './media/routes';
import { studentAdminRoutes } from './students/admin-routes';
import { thumbnailRoutes } from './thumbnails/routes';
import { videoStudentRoutes } from './videos/student-routes';
import { videoAdminRoutes } from './videos/admin-routes';
import { resourceOwners } from './videos/owners';

/** The segment route's template: the fast path serves it outside Fastify, under the same label. */
const SEGMENT_ROUTE = splitRouteKey('GET /stream/videos/:id/:rendition/:file' satisfies RouteKey).path;

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
  /** What `/readyz` checks, and the draining flag the shutdown raises (main.ts); else made from `ctx`. */
  readiness?: Readiness;
  /** Called once when a student completes a course; by default the certificate is issued. */
  onCourseComplete?: readonly CourseCompletionSubscriber[];
  /** main.ts: `close` leaves idle connections to the caller (see forceCloseConnections below). */
  gracefulClose?: boolean;
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes "the nearest N addresses are proxies": this
 * Fastify reads a bare number as "trust nothing", since it cannot tell a proxy from a client that
 * reached the port directly (docs/SCALING.md: listen where only the proxy can connect, or list it).
 */
function proxyTrust(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Assembles the HTTP app: plugins first, then each domain's routes. Does not listen. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // TLS_CERT/TLS_KEY: Lectern serves HTTPS itself (the session cookie is Secure only over HTTPS).
    ...(ctx.config.tls && { https: { cert: ctx.config.tls.cert, key: ctx.config.tls.key } }),
    loggerInstance: ctx.logger,
    // Per-request log lines cost more than the segment they describe; errors are logged by the handler.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: proxyTrust(ctx.config.trustProxy),
    bodyLimit: 4 * 1024 * 1024,
    // While closing (graceful shutdown), a request that still reaches us on an open connection is
    // served, with `Connection: close` (health/routes.ts): a 503 there is a POST nginx cannot resend.
    return503OnClosing: false,
    // main.ts (graceful shutdown): not at close, where a connection accepted just before the listener
    // closed looks idle until its request arrives; it closes the idle ones a second later instead.
    forceCloseConnections: options.gracefulClose ? false : 'idle',
  });
  // First, so it sees every route registered after it, in any plugin scope.
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
  });

  installErrorHandler(app);
  // Metrics on: every request is timed under its route table template (metrics/http-metrics.ts).
  const observe = ctx.config.metrics.enabled ? requestObserver(ctx.metrics) : undefined;
  if (observe) installRequestMetrics(app, observe);
  // Live classes, viewers, ingest bitrate and segment lag (live/live-metrics.ts).
  if (ctx.config.metrics.enabled) installLiveMetrics(app, ctx);
  if (options.checkResponses) installResponseCheck(app);
  await installSecurityHeaders(app, segmentOrigins(ctx.config));
  await app.register(cookie);
  installOriginCheck(app);

  const sessions = sessionStore(ctx.db, { adminIdleMinutes: ctx.config.adminIdleMinutes });
  const codes = oneTimeCodeStore(ctx.db, ctx.signingKey);
  const auth = createAuth(sessions, ctx.clock, {
    factorRequired: ctx.config.adminMfa === 'required',
    owners: resourceOwners(ctx.db),
  });
  const deps = { ctx, auth, sessions, codes };
  // Checkpoints hold the key route and clip progress saves; a course becoming complete is detected
  // in one place (checkpoints/completion.ts) and goes to these subscribers.
  const completion = new CompletionWatch(ctx, options.onCourseComplete ?? [issueCertificateOnCompletion]);

  await app.register(
    async (studentApi) => {
      installOpeningGate(studentApi, ctx);
      await studentApi.register(studentAccountRoutes, deps);
      await studentApi.register(videoStudentRoutes, deps);
      await studentApi.register(courseStudentRoutes, deps);
      await studentApi.register(progressRoutes, {
        ...deps,
        gate: withLivePlay(ctx, checkpointProgressGate(ctx, completion)),
      });
      await studentApi.register(certificateStudentRoutes, deps);
    },
    { prefix: '/api' },
  );

  await app.register(
    async (adminApi) => {
      await adminApi.register(adminAccountRoutes, deps);
      await adminApi.register(adminSignInRoutes, deps);
      await adminApi.register(courseAdminRoutes, deps);
      await adminApi.register(videoAdminRoutes, deps);
      await adminApi.register(studentAdminRoutes, deps);
      await adminApi.register(instructorAdminRoutes, deps);
      await adminApi.register(analyticsRoutes, deps);
      await adminApi.register(playbackHealthRoutes, deps);
      await adminApi.register(backupAdminRoutes, { ...deps, wakeJobs: options.wakeJobs });
      await adminApi.register(traceRunRoutes, { ...deps, wakeJobs: options.wakeJobs });
      await adminApi.register(certificateAdminRoutes, deps);
    },
    { prefix: '/api/admin' },
  );

  // Outside the student API's gate: these answer admins at any hour, so each handler closes itself to
  // students (opening-gate.ts requireOpenTo); a student's access comes from the video's own rule.
  await app.register(captionRoutes, deps);
  // Public at any hour: the verification page's data and the status list (no opening gate).
  await app.register(certificatePublicRoutes, deps);
  await app.register(learningRoutes, { ...deps, wakeJobs: options.wakeJobs });
  await app.register(checkpointRoutes, { ...deps, completion });
  await app.register(playbackRoutes, deps);
  await app.register(liveRoutes, deps);
  await app.register(liveAttendanceRoutes, deps);
  // nginx's rtmp callbacks (form-encoded; their own parser in their own scope).
  await app.register(rtmpRoutes, deps);
  await app.register(searchRoutes, deps);
  await app.register(thumbnailRoutes, { ctx, auth });
  await app.register(metricsRoutes, deps);
  await app.register(streamRoutes, {
    prefix: '/stream',
    ctx,
    auth,
    wakeJobs: options.wakeJobs,
    keyHold: withLiveJoin(ctx, checkpointKeyHold(ctx)),
    observeFastPath:
      observe && ((method, status, seconds) => observe(SEGMENT_ROUTE, method, status, seconds)),
  });

  healthRoutes(app, auth, options.readiness ?? createReadiness(ctx));

  await installWebApp(app, options.webRoot, ctx.config.productName);
  const missing = unregisteredRoutes(app);
  if (missing.length) throw new Error(`Routes in the table without a handler: ${missing.join(', ')}`);
  return app;
}
