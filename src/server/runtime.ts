import { createRequire } from 'node:module';
import path from 'node:path';
import pino from 'pino';
import type PinoPretty from 'pino-pretty';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db/client';
import { createMailer, type Mailer } from './mail/mailer';
import { checkMediaStores, createMediaStores } from './storage';
import { createMetrics } from './metrics/metrics';
import { runtimeSources } from './metrics/sources';
import { createRateCounter } from './rate-limit/rate-counter';
import { loadSigningKey } from './signing-key';

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

/** Readable log lines (time, level, message, then the fields) for a person at a terminal. */
function prettyStream(): PinoPretty.PrettyStream {
  // Loaded only here: the JSON path (servers, collectors) never pays for the formatter.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pretty({ translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true, sync: true });
}

/** The process's logger: JSON lines, or pretty ones with `LOG_FORMAT=pretty` (the default on a terminal). */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): FastifyBaseLogger {
  const options = {
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'headers.cookie', 'headers.authorization'],
  };
  const logger = config.logFormat === 'pretty' ? pino(options, prettyStream()) : pino(options);
  return logger as unknown as FastifyBaseLogger;
}

/** Opens everything a process needs (database, mailer, rate counters, keys) for the given config. */
export async function openRuntime(
  config: Readonly<Config>,
  overrides: { logger?: FastifyBaseLogger; clock?: Clock; mailer?: Mailer; databaseImage?: Blob } = {},
): Promise<Runtime> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  // A short or damaged signing key stops the process before anything is opened.
  const signingKey = loadSigningKey(config.signingKey, config.dataDir);
  // Then the bucket: a wrong name or key stops the process before anything else starts.
  const media = createMediaStores(config);
  try {
    await checkMediaStores(media, config);
  } catch (error) {
    media.close();
    throw error;
  }
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    image: overrides.databaseImage,
  });
  const mailer =
    overrides.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      logger,
    });
  const rateCounter = createRateCounter(config.redisUrl, clock);
  // Node's own figures (event loop lag, heap, GC) only when someone can read them.
  // Scrape-time database figures are kept SCRAPE_CACHE_MS by the process's clock (a test's moves them on).
  const metrics = createMetrics({ defaultMetrics: config.metrics.enabled, now: () => clock.now().getTime() });
  metrics.setSources(runtimeSources(database, clock, config.dataDir));
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    clock,
    mailer,
    rateCounter,
    signingKey,
    logger,
    media,
    metrics,
  };
  return {
    ctx,
    async close() {
      mailer.close();
      media.close();
      await rateCounter.close();
      await database.close();
    },
  };
}
