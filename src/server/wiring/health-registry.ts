import type { AppContext } from '../context';
import { backupTargetCheck } from '../backup/health-check';
import {
  databaseCheck,
  diskCheck,
  ffmpegCheck,
  migrationsCheck,
  redisCheck,
  storeCheck,
} from '../health/checks';
import { Readiness, type HealthCheck } from '../health/readiness';
import { speechCommandCheck, tesseractCheck } from '../search/health-check';
import { liveIngestCheck } from '../live/health-check';

/**
 * The one list of what `/readyz` and `npm run cli -- doctor` check. A domain with a dependency of
 * its own (a backup target, say) exports a `HealthCheck` factory and adds one line here; it then
 * appears in both, under its name.
 */
export function readinessChecks(ctx: AppContext): HealthCheck[] {
  const { config } = ctx;
  return [
    databaseCheck(ctx),
    migrationsCheck(ctx),
    storeCheck(ctx),
    ...(config.redisUrl ? [redisCheck(ctx)] : []),
    // ffmpeg only matters where jobs run: not on ROLE=web nodes (nor WEB_CONCURRENCY's HTTP processes).
    ...(config.role !== 'web' ? [ffmpegCheck(config)] : []),
    // Backups run where jobs run; an unreachable target is reported, never a reason to stop serving.
    ...(config.role !== 'web' ? [backupTargetCheck(ctx)] : []),
    // Text on screen for search, where jobs run (advisory: playback goes on without it).
    ...(config.role !== 'web' && config.searchOcr ? [tesseractCheck(config)] : []),
    // Speech for search, where jobs run and SPEECH_COMMAND is set (advisory, as Tesseract).
    ...(config.role !== 'web' && config.speechCommand ? [speechCommandCheck(config.speechCommand)] : []),
    // Live classes' ingest where it runs: SRT ports, nginx's rtmp listener (advisory).
    ...(config.role !== 'web' && config.live.ingest ? [liveIngestCheck(ctx)] : []),
    diskCheck(config),
  ];
}

export function createReadiness(ctx: AppContext): Readiness {
  return new Readiness(readinessChecks(ctx));
}
