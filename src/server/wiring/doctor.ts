import { systemClock } from '../clock';
import { liveIngestLine } from './doctor-live';
import { ConfigError, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { DatabaseInUseError } from '../db/embedded-lock';
import { ffmpegCheck, redisCheck, storeCheck } from '../health/checks';
import { oneLine } from '../health/readiness';
import { createRateCounter } from '../rate-limit/rate-counter';
import { existingSigningKey } from '../signing-key';
import { createMediaStores } from '../storage';
import { backupLine, databaseLines, signingKeyLine, videoKeysLine } from './doctor-data';
import { bucketCorsLine, nginxLine, type DoctorOptions } from './doctor-delivery';
import { fromCheck, type DoctorLine } from './doctor-line';
import {
  diskLine,
  encodersLine,
  mailLine,
  nodeLine,
  settingsLine,
  speechLine,
  tesseractLine,
} from './doctor-machine';

export type { DoctorLine, Verdict } from './doctor-line';
export type { DoctorOptions } from './doctor-delivery';

/**
 * `npm run cli -- doctor`: every part Lectern needs, one line each with the fix. The database,
 * store, Redis, ffmpeg and disk lines are the readiness checks themselves (health/checks.ts), so
 * `/readyz` and the doctor cannot disagree. Nothing is changed (no migration, no key generated).
 */
export async function runDoctor(
  config: Readonly<Config>,
  env: NodeJS.ProcessEnv,
  options: DoctorOptions = {},
): Promise<DoctorLine[]> {
  const lines: DoctorLine[] = [settingsLine(env), nodeLine()];
  let database: Database | undefined;
  let why: string | undefined;
  try {
    database = await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: 2,
      migrate: false,
    });
  } catch (error) {
    why = error instanceof DatabaseInUseError ? `in use: ${error.message}` : oneLine(error);
  }
  const media = createMediaStores(config);
  const rateCounter = config.redisUrl ? createRateCounter(config.redisUrl, systemClock) : undefined;
  try {
    lines.push(...(await databaseLines(database, why)));
    lines.push(await fromCheck(storeCheck({ media })));
    if (rateCounter) lines.push(await fromCheck(redisCheck({ rateCounter })));
    lines.push(await mailLine(config));
    lines.push(await fromCheck({ ...ffmpegCheck(config), timeoutMs: 10_000 }));
    if (lines.at(-1)!.verdict === 'ok') lines.push(await encodersLine(config));
    if (config.searchOcr) lines.push(await tesseractLine(config));
    if (config.speechCommand) lines.push(await speechLine(config.speechCommand));
    lines.push(await diskLine(config));
    if (config.live.ingest && database)
      lines.push(await liveIngestLine({ config, db: database.db, clock: systemClock }));
    lines.push(await backupLine(config, database));
    let key: Buffer | undefined;
    try {
      key = existingSigningKey(config);
      lines.push(signingKeyLine(config, key));
    } catch (error) {
      // A key the server would refuse (too short, not hex) is this line's fail, not the doctor's end.
      if (!(error instanceof ConfigError)) throw error;
      lines.push({ verdict: 'fail', name: 'signing key', detail: error.message });
    }
    if (database && key) {
      const keys = await videoKeysLine(database, key);
      if (keys) lines.push(keys);
    }
    const nginx = nginxLine(config, key, options);
    if (nginx) lines.push(nginx);
    const cors = await bucketCorsLine(config);
    if (cors) lines.push(cors);
  } finally {
    await database?.close();
    media.close();
    await rateCounter?.close();
  }
  return lines;
}

/** The report as printed: `ok   name  detail`, and the fix under a warn or fail. */
export function formatDoctor(lines: DoctorLine[]): string {
  const width = Math.max(...lines.map((l) => l.name.length));
  return lines
    .map(
      (l) =>
        `${l.verdict.padEnd(4)} ${l.name.padEnd(width)}  ${l.detail}${l.fix ? `\n${' '.repeat(width + 7)}fix: ${l.fix}` : ''}`,
    )
    .join('\n');
}
