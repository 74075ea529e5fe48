/**
 * The settings: every environment variable read once into a frozen `Config` (settings.ts parses each
 * variable, sections.ts checks those that work together, types.ts says what the rest of the server
 * gets). Import from here.
 */
import path from 'node:path';
import { backupConfig, defaultPublicUrl, liveConfig, s3Config, tlsConfig } from './sections';
import { parseSettings, type Settings } from './settings';
import { ConfigError, type Config } from './types';

export * from './types';
export { SETTING_NAMES } from './settings';

/**
 * Parses the environment once; the first bad variable is named in a one-line error. `stdoutIsTTY`
 * picks the default log format (pretty for a person at a terminal, JSON for a collector).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { stdoutIsTTY = process.stdout.isTTY === true }: { stdoutIsTTY?: boolean } = {},
): Readonly<Config> {
  const e = parseSettings(env);
  if (e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL?.startsWith('postgres'))
    throw new ConfigError(
      `Invalid WEB_CONCURRENCY=${e.WEB_CONCURRENCY}: more than one process needs PostgreSQL (DATABASE_URL); the embedded database belongs to one process`,
    );
  if (e.SHUTDOWN_DRAIN_SECONDS >= e.SHUTDOWN_TIMEOUT_SECONDS)
    throw new ConfigError(
      `Invalid SHUTDOWN_DRAIN_SECONDS=${e.SHUTDOWN_DRAIN_SECONDS}: must be below SHUTDOWN_TIMEOUT_SECONDS (${e.SHUTDOWN_TIMEOUT_SECONDS}), which includes the drain`,
    );
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    throw new ConfigError(`Invalid METRICS_PORT=${e.METRICS_PORT}: it must differ from PORT`);
  return Object.freeze({
    ...baseConfig(e, stdoutIsTTY),
    mediaStore: e.MEDIA_STORE,
    s3: s3Config(e, env),
    tls: tlsConfig(e),
    publicUrl: e.PUBLIC_URL ?? defaultPublicUrl(e.HOST, e.PORT, Boolean(e.TLS_CERT)),
    backup: backupConfig(e),
    live: liveConfig(e),
  });
}

/** The settings that pass as they are parsed (a path resolved, a flag read). */
function baseConfig(e: Settings, stdoutIsTTY: boolean) {
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    openHours: e.OPEN_HOURS,
    openTimeZone: e.OPEN_TZ,
    productName: e.PRODUCT_NAME,
    signingKey: e.SIGNING_KEY,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    maxStudentSessions: e.MAX_STUDENT_SESSIONS,
    playbackSessionDays: e.PLAYBACK_SESSION_DAYS,
    redisUrl: e.REDIS_URL,
    adminPassword: e.ADMIN_PASSWORD,
    adminUsername: e.ADMIN_USERNAME,
    adminMfa: e.ADMIN_MFA,
    adminIdleMinutes: e.ADMIN_IDLE_MINUTES,
    segmentDelivery: e.SEGMENT_DELIVERY,
    segmentBaseUrl: e.SEGMENT_BASE_URL?.replace(/\/+$/, ''),
    keyRotationSeconds: e.KEY_ROTATION_SECONDS,
    forensicMarks: e.FORENSIC_MARKS === 'on',
    searchOcr: e.SEARCH_OCR === 'on',
    ocrLangs: e.OCR_LANGS,
    tesseractPath: e.TESSERACT_PATH,
    speechCommand: e.SPEECH_COMMAND,
    speechTimeoutSeconds: e.SPEECH_TIMEOUT_SECONDS,
    webConcurrency: e.WEB_CONCURRENCY,
    role: e.ROLE,
    seedDemo: e.SEED_DEMO ?? e.DATABASE_URL === undefined,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (stdoutIsTTY ? 'pretty' : 'json'),
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    metrics: Object.freeze({
      port: e.METRICS_PORT,
      host: e.METRICS_HOST,
      token: e.METRICS_TOKEN,
      enabled: e.METRICS_PORT !== undefined || e.METRICS_TOKEN !== undefined,
    }),
    backupSchedule: e.BACKUP_SCHEDULE,
    backupKeep: e.BACKUP_KEEP,
  };
}
