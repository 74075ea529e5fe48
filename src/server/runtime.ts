import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db/client';
import { createMailer, type Mailer } from './mail/mailer';
import { createRateCounter } from './plugins/rate-counter';
import { loadSigningKey } from './signing-key';

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

export function createLogger(config: Readonly<Config>): FastifyBaseLogger {
  return pino({
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'headers.cookie', 'headers.authorization'],
  }) as unknown as FastifyBaseLogger;
}

/** Opens everything a process needs (database, mailer, rate counters, keys) for the given config. */
export async function openRuntime(
  config: Readonly<Config>,
  overrides: { logger?: FastifyBaseLogger; clock?: Clock; mailer?: Mailer } = {},
): Promise<Runtime> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const mailer =
    overrides.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      logger,
    });
  const rateCounter = createRateCounter(config.redisUrl, clock);
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    clock,
    mailer,
    rateCounter,
    signingKey: loadSigningKey(config.signingKey, config.dataDir),
    logger,
  };
  return {
    ctx,
    async close() {
      mailer.close();
      await rateCounter.close();
      await database.close();
    },
  };
}
