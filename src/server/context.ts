import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Mailer } from './mail/mailer';
import type { Metrics } from './metrics/metrics';
import type { RateCounter } from './rate-limit/rate-counter';

/**
 * Everything a service needs from the outside world; built once in main.ts (or by a test harness).
 * `media`, where media lives (the local folder, and the S3 bucket when one is configured), is added by
 * the storage layer above (storage/index.ts), so this platform type names nothing above it.
 */
export interface AppContext {
  config: Readonly<Config>;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  clock: Clock;
  mailer: Mailer;
  rateCounter: RateCounter;
  /** HMAC key for playback tokens and one-time codes. */
  signingKey: Buffer;
  logger: FastifyBaseLogger;
  /** Prometheus metrics of this process (recorded always; exported when METRICS_PORT or METRICS_TOKEN is set). */
  metrics: Metrics;
}
