import type { FastifyBaseLogger } from 'fastify';
import type { Readiness } from './readiness';

/** What a process stops, in order, on SIGTERM or SIGINT (main.ts builds it for its role). */
export interface ShutdownSteps {
  logger: FastifyBaseLogger;
  drainSeconds: number;
  timeoutSeconds: number;
  /** Raised at once: `/readyz` answers 503 so the balancer stops sending new work. Absent without HTTP. */
  readiness?: Readiness;
  /** Stops taking jobs and puts the running ones back in the queue (the next start runs them). */
  stopJobs?: () => Promise<void>;
  /** After the drain: refuses new connections and resolves once the requests in flight have finished. */
  closeHttp?: () => Promise<void>;
  /** At the timeout: cuts the connections still open (a download that would take longer). */
  cutHttp?: () => void;

  /** Last: database, mailer, stores. */
  closeRest: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Graceful shutdown (docs/OPERATIONS.md, "Shutdown"): readiness goes 503 at once and jobs go back
 * to the queue; new connections are still taken for `drainSeconds` (a balancer needs a moment to
 * notice), then refused; requests in flight finish; exit 0. At `timeoutSeconds` what still runs
 * is cut and the process exits 1. A second Ctrl-C exits at once.
 */
export function onShutdown(steps: ShutdownSteps): { stopping: () => boolean } {
  let stopping = false;
  const { logger } = steps;
  const stop = async (signal: string) => {
    if (stopping) {
      if (signal === 'SIGINT') process.exit(1);
      return;
    }
    stopping = true;
    const started = Date.now();
    steps.readiness?.drain();
    logger.info(
      { signal, drainSeconds: steps.drainSeconds, timeoutSeconds: steps.timeoutSeconds },
      'shutting down: readiness answers 503; finishing requests in flight and putting running jobs back',
    );
    setTimeout(() => {
      logger.warn(`requests still running after SHUTDOWN_TIMEOUT_SECONDS=${steps.timeoutSeconds}: cut`);
      steps.cutHttp?.();
      process.exit(1);
    }, steps.timeoutSeconds * 1000).unref();
    try {
      const jobs = steps.stopJobs?.();
      if (steps.closeHttp) {
        await sleep(steps.drainSeconds * 1000);
        await steps.closeHttp();
      }
      await jobs;
      await steps.closeRest();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    logger.info({ ms: Date.now() - started }, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return { stopping: () => stopping };
}
