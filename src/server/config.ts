import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { OpenHours } from '../contract/opening-hours';
import { Username } from '../contract/students';

const GIB = 1024 ** 3;

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const openHours = z.string().transform((value, ctx): OpenHours => {
  if (value === 'always') return 'always';
  const match = /^(\d{1,2})-(\d{1,2})$/.exec(value);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: 'expected "always" or "H-H" such as 10-22' });
    return z.NEVER;
  }
  const [from, to] = [Number(match[1]), Number(match[2])];
  if (from > 23 || to > 24 || from === to) {
    ctx.addIssue({ code: 'custom', message: 'hours must be 0-24 and differ' });
    return z.NEVER;
  }
  return [from, to];
});

const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'unknown IANA time zone');

/** `HH:MM` (24-hour, in OPEN_TZ) or `off`. */
const backupSchedule = z.string().transform((value, ctx): BackupSchedule => {
  if (value === 'off') return 'off';
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: 'expected "off" or a time HH:MM such as 03:00' });
    return z.NEVER;
  }
  return { hour: Number(match[1]), minute: Number(match[2]) };
});

/** `FROM-TO`, two ports (the SRT listeners of live classes). */
const portRange = z.string().transform((value, ctx): [number, number] => {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(value);
  const [from, to] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || from < 1 || to > 65_535 || from > to) {
    ctx.addIssue({ code: 'custom', message: 'expected two ports FROM-TO such as 9710-9799' });
    return z.NEVER;
  }
  return [from, to];
});

/** An IP address or a CIDR block such as 10.0.0.0/8 or fd00::/8. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
}

/**
 * Which proxies may name the client in X-Forwarded-For: none (`false`), the nearest N hops, or the
 * listed addresses. `true` (believe every hop) would let any client write its own address there.
 */
const trustProxy = z.string().transform((value, ctx): TrustProxy => {
  if (['false', 'no', '0'].includes(value)) return false;
  if (['true', 'yes'].includes(value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'trusting every proxy lets a client forge its address in X-Forwarded-For; write how many proxies stand in front of Lectern (1 for one nginx) or their addresses (e.g. 10.0.0.5,10.0.1.0/24)',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(value)) {
    if (Number(value) <= 10) return Number(value);
    ctx.addIssue({ code: 'custom', message: 'expected a hop count from 1 to 10' });
    return z.NEVER;
  }
  const addresses = value.split(',').map((a) => a.trim());
  const wrong = addresses.find((a) => !isAddressOrCidr(a));
  if (wrong === undefined) return addresses;
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(wrong)} is not an IP address or CIDR; expected false, a hop count (1, 2) or proxy addresses such as 10.0.0.5,10.0.1.0/24`,
  });
  return z.NEVER;
});

/**
 * The address people open Lectern at: an http(s) origin, nothing after the host and port. Passkeys
 * are bound to it (WebAuthn's relying party is its host name; browsers refuse IP addresses there).
 */
const publicUrl = z.string().transform((value, ctx): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'expected the address people open, such as https://lectern.school.example',
    });
    return z.NEVER;
  }
  if (
    !['http:', 'https:'].includes(url.protocol) ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname !== '/'
  ) {
    ctx.addIssue({
      code: 'custom',
      message:
        'expected an http(s) origin with nothing after the host and port, such as https://lectern.school.example',
    });
    return z.NEVER;
  }
  return url.origin;
});

/** Where a browser on this machine reaches the listening address (loopback and "every address" read as localhost). */
function defaultPublicUrl(host: string, port: number, https: boolean): string {
  const local = ['127.0.0.1', '::1', '0.0.0.0', '::', 'localhost'].includes(host);
  const name = local ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  const scheme = https ? 'https' : 'http';
  const standard = (https && port === 443) || (!https && port === 80);
  return `${scheme}://${name}${standard ? '' : `:${port}`}`;
}

const databaseUrl = z
  .string()
  .refine((v) => v === 'memory://' || /^postgres(ql)?:\/\//.test(v), 'expected memory:// or postgres://…');

/** Every environment variable Lectern reads, with its default. README's configuration table mirrors it. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: publicUrl.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: databaseUrl.optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Lectern <no-reply@lectern.local>'),
  OPEN_HOURS: openHours.prefault('10-22'),
  OPEN_TZ: timeZone.default('Asia/Kolkata'),
  PRODUCT_NAME: z.string().min(1).max(60).default('Lectern'),
  SIGNING_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * GIB),
  MAX_STUDENT_SESSIONS: z.coerce.number().int().min(1).max(100).default(2),
  PLAYBACK_SESSION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  ADMIN_USERNAME: Username.default('admin'),
  ADMIN_MFA: z
    .enum(['required', 'optional'], 'expected required (admins must set up a second factor) or optional')
    .default('required'),
  ADMIN_IDLE_MINUTES: z.coerce.number().int().min(5).max(720).default(30),
  SEGMENT_DELIVERY: z.enum(['node', 'nginx', 's3']).default('node'),
  SEGMENT_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  KEY_ROTATION_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  FORENSIC_MARKS: z.enum(['on', 'off']).default('off'),
  SEARCH_OCR: z.enum(['on', 'off']).default('on'),
  OCR_LANGS: z
    .string()
    .regex(/^[a-z_]{3,20}(\+[a-z_]{3,20}){0,4}$/, 'expected Tesseract languages such as eng or eng+hin')
    .default('eng'),
  TESSERACT_PATH: z.string().min(1).default('tesseract'),
  SPEECH_COMMAND: z.string().trim().min(1).optional(),
  SPEECH_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).optional(),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  SEED_DEMO: bool.optional(),
  TRUST_PROXY: trustProxy.prefault('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MEDIA_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'expected an S3 bucket name (3-63 of a-z 0-9 . -)')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  TLS_CERT: z.string().min(1).optional(),
  TLS_KEY: z.string().min(1).optional(),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(5),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  LIVE_INGEST: z.enum(['on', 'off']).default('on'),
  LIVE_SRT_PORTS: portRange.prefault('9710-9799'),
  LIVE_INGEST_HOST: z.string().min(1).optional(),
  LIVE_RTMP_URL: z.url({ protocol: /^rtmps?$/ }).optional(),
  LIVE_RECONNECT_SECONDS: z.coerce.number().min(0.5).max(3600).default(60),
  BACKUP_SCHEDULE: backupSchedule.prefault('03:00'),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(14),
  BACKUP_TARGET: z
    .string()
    .refine(
      (v) => !v.includes('://') || /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(v),
      'expected a folder or s3://bucket/prefix',
    )
    .optional(),
  BACKUP_PASSPHRASE: z.string().min(12, 'must be at least 12 characters').optional(),
  BACKUP_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  BACKUP_S3_REGION: z.string().min(1).optional(),
  BACKUP_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  BACKUP_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  BACKUP_S3_FORCE_PATH_STYLE: bool.optional(),
});

/** The name of every environment variable Lectern reads (the doctor lists those set, secrets masked). */
export const SETTING_NAMES: readonly string[] = Object.keys(Env.shape);

/** The bucket settings, when a bucket is configured (MEDIA_STORE=s3, or a move to or from one). */
export interface S3Config {
  /** Unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** The PEM certificate chain and private key Lectern serves HTTPS with (read from TLS_CERT / TLS_KEY). */
export interface TlsConfig {
  cert: string;
  key: string;
}

/** Where backups go and how the signing key is protected in them (src/server/backup). */
export interface BackupConfig {
  /** A folder (default DATA_DIR/backups) or `s3://bucket/prefix`. */
  target: string;
  /** Encrypts SIGNING_KEY into each backup (AES-256-GCM); unset: the key stays out and a restore asks for it. */
  passphrase: string | undefined;
  /** The credentials for `s3://` targets: BACKUP_S3_*, each defaulting to its S3_* setting. */
  s3: Readonly<Omit<S3Config, 'bucket'>> | undefined;
}

export type { OpenHours } from '../contract/opening-hours';

/** Fastify's trustProxy: `false`, the number of proxy hops in front, or the proxies' addresses and CIDRs. */
export type TrustProxy = false | number | string[];

/** When the daily backup starts, in the school's time zone (OPEN_TZ); `off`: only on demand. */
export type BackupSchedule = 'off' | { hour: number; minute: number };

export interface Config {
  port: number;
  host: string;
  /** The origin people open (PUBLIC_URL, else from HOST and PORT): passkeys are bound to its host name. */
  publicUrl: string;
  dataDir: string;
  /** `undefined` means embedded PGlite persisted in `dataDir/db`. */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  openHours: OpenHours;
  openTimeZone: string;
  productName: string;
  signingKey: string | undefined;
  ffmpegPath: string;
  ffprobePath: string;
  maxUploadBytes: number;
  maxStudentSessions: number;
  /** How long playback sessions (the codes drawn on the player) are kept for leak tracing. */
  playbackSessionDays: number;
  redisUrl: string | undefined;
  adminPassword: string | undefined;
  /** The first admin's name, set at the first start (a name an attacker need not guess is one factor less given away). */
  adminUsername: string;
  /** `required`: an admin without a second factor sets one up right after the password; `optional`: may skip. */
  adminMfa: 'required' | 'optional';
  /** An admin session ends after this many minutes without a request (and 12 h after sign-in in any case). */
  adminIdleMinutes: number;
  /** Who serves segment bytes: `node` (Lectern), `nginx` (secure_link, local store) or `s3` (presigned). */
  segmentDelivery: 'node' | 'nginx' | 's3';
  /** `s3` mode: a CDN in front of the bucket; segment URLs go there instead of presigned bucket URLs. */
  segmentBaseUrl: string | undefined;
  /** Seconds of media per AES-128 key: a revoked viewer stops within this plus the player's buffer. */
  keyRotationSeconds: number;
  /** Forensic A/B marks (docs/FORENSIC.md): the ladder writes every segment twice, each session gets its own sequence. */
  forensicMarks: boolean;
  /** Search (issue 29): text on screen read by Tesseract in these languages (`eng+hin`), or off. */
  searchOcr: boolean;
  ocrLangs: string;
  tesseractPath: string;
  /** A program reading a 16 kHz mono WAV (its path, the first argument) and writing WebVTT (the second); unset: off. */
  speechCommand: string | undefined;
  /** The longest one run of SPEECH_COMMAND may take; unset: 3x the video's length, at least 60 s. */
  speechTimeoutSeconds: number | undefined;
  /** HTTP processes sharing PORT (node:cluster); more than 1 needs PostgreSQL. */
  webConcurrency: number;
  role: 'all' | 'web' | 'worker';
  /** Demo course, student and sample lectures on first start; on by default only for the embedded database. */
  seedDemo: boolean;
  /** Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (client address, Secure cookie). */
  trustProxy: TrustProxy;
  logLevel: string;
  /** Where new media goes: `local` (DATA_DIR/media) or `s3` (the bucket below). */
  mediaStore: 'local' | 's3';
  /** Set when S3_BUCKET is: required by MEDIA_STORE=s3, optional otherwise (media:migrate). */
  s3: Readonly<S3Config> | undefined;
  /** `pretty`: readable lines and a first screen for a person at a terminal; `json`: one JSON object a line. */
  logFormat: 'pretty' | 'json';
  /** Set by TLS_CERT and TLS_KEY: Lectern serves HTTPS itself (the session cookie is then Secure). */
  tls: Readonly<TlsConfig> | undefined;
  /** After SIGTERM: seconds `/readyz` answers 503 while new connections are still taken (the balancer notices). */
  shutdownDrainSeconds: number;
  /** After SIGTERM: seconds in-flight requests get to finish before their connections are cut (systemd's TimeoutStopSec). */
  shutdownTimeoutSeconds: number;
  /** Prometheus metrics (docs/OPERATIONS.md): on when either way to reach them is set. */
  metrics: Readonly<MetricsConfig>;
  /** Live classes (docs/LIVE.md). */
  live: Readonly<LiveConfig>;
  backupSchedule: BackupSchedule;
  /** Backups kept on the target; older ones are pruned after each successful backup. */
  backupKeep: number;
  backup: Readonly<BackupConfig>;
}

export interface LiveConfig {
  /** This node runs the SRT listeners of classes about to start and packages their streams (LIVE_INGEST). */
  ingest: boolean;
  /** The ports SRT listeners take, one per class not ended. */
  srtPorts: [from: number, to: number];
  /** The host name encoders reach (in the srt:// and rtmp:// addresses); the listeners bind to HOST. */
  ingestHost: string;
  /** The RTMP server address shown to staff (nginx with the rtmp module in front: docs/LIVE.md). */
  rtmpUrl: string;
  /** How long a dropped encoder may take to reconnect before the class's recording gets its end. */
  reconnectSeconds: number;
}

export interface MetricsConfig {
  /** GET /metrics on its own listener (no token there: keep the port private). */
  port: number | undefined;
  host: string;
  /** GET /metrics on the main port for `Authorization: Bearer <token>`. */
  token: string | undefined;
  enabled: boolean;
}

export class ConfigError extends Error {}

/**
 * Parses the environment once; the first bad variable is named in a one-line error. `stdoutIsTTY`
 * picks the default log format (pretty for a person at a terminal, JSON for a collector).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { stdoutIsTTY = process.stdout.isTTY === true }: { stdoutIsTTY?: boolean } = {},
): Readonly<Config> {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue.message}`);
  }
  const e = parsed.data;
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

/** Live ingest: the encoders' host name is LIVE_INGEST_HOST, else PUBLIC_URL's, else HOST's. */
function liveConfig(e: z.output<typeof Env>): Readonly<LiveConfig> {
  const publicHost = new URL(e.PUBLIC_URL ?? defaultPublicUrl(e.HOST, e.PORT, false)).hostname;
  const ingestHost = e.LIVE_INGEST_HOST ?? publicHost;
  return Object.freeze({
    ingest: e.LIVE_INGEST === 'on',
    srtPorts: e.LIVE_SRT_PORTS,
    ingestHost,
    rtmpUrl: e.LIVE_RTMP_URL?.replace(/\/+$/, '') ?? `rtmp://${ingestHost}:1935/live`,
    reconnectSeconds: e.LIVE_RECONNECT_SECONDS,
  });
}

/** Backups go to a folder or a bucket; a bucket target needs credentials (its own, or the media bucket's). */
function backupConfig(e: z.output<typeof Env>): Readonly<BackupConfig> {
  const target = e.BACKUP_TARGET ?? path.join(path.resolve(e.DATA_DIR), 'backups');
  const accessKeyId = e.BACKUP_S3_ACCESS_KEY_ID ?? e.S3_ACCESS_KEY_ID;
  const secretAccessKey = e.BACKUP_S3_SECRET_ACCESS_KEY ?? e.S3_SECRET_ACCESS_KEY;
  const s3 =
    accessKeyId && secretAccessKey
      ? Object.freeze({
          endpoint: e.BACKUP_S3_ENDPOINT ?? e.S3_ENDPOINT,
          region: e.BACKUP_S3_REGION ?? e.S3_REGION,
          accessKeyId,
          secretAccessKey,
          forcePathStyle: e.BACKUP_S3_FORCE_PATH_STYLE ?? e.S3_FORCE_PATH_STYLE,
        })
      : undefined;
  if (target.startsWith('s3://') && !s3)
    throw new ConfigError(
      `Missing BACKUP_S3_ACCESS_KEY_ID: BACKUP_TARGET=${target} needs credentials (BACKUP_S3_* or S3_*; see README, "Backups")`,
    );
  return Object.freeze({
    target: target.startsWith('s3://') ? target : path.resolve(target),
    passphrase: e.BACKUP_PASSPHRASE,
    s3,
  });
}

/** The bucket settings; a bucket needs its credentials, and MEDIA_STORE=s3 needs a bucket. */
function s3Config(e: z.output<typeof Env>, env: NodeJS.ProcessEnv): Readonly<S3Config> | undefined {
  const missing = (name: string, why: string) =>
    new ConfigError(`Missing ${name}: ${why} (see README, "Media in an S3 bucket")`);
  if (!e.S3_BUCKET) {
    if (e.MEDIA_STORE === 's3') throw missing('S3_BUCKET', 'MEDIA_STORE=s3 needs a bucket');
    if (e.SEGMENT_DELIVERY === 's3') throw missing('S3_BUCKET', 'SEGMENT_DELIVERY=s3 needs a bucket');
    return undefined;
  }
  if (!e.S3_ACCESS_KEY_ID)
    throw missing('S3_ACCESS_KEY_ID', `the credentials for S3_BUCKET=${env.S3_BUCKET}`);
  if (!e.S3_SECRET_ACCESS_KEY)
    throw missing('S3_SECRET_ACCESS_KEY', `the credentials for S3_BUCKET=${env.S3_BUCKET}`);
  return Object.freeze({
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    bucket: e.S3_BUCKET,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  });
}

/** Both files or neither; each must be readable PEM, and the key must belong to the certificate. */
function tlsConfig(e: z.output<typeof Env>): Readonly<TlsConfig> | undefined {
  if (!e.TLS_CERT && !e.TLS_KEY) return undefined;
  if (!e.TLS_CERT) throw new ConfigError('Missing TLS_CERT: TLS_KEY is set, and HTTPS needs both files');
  if (!e.TLS_KEY) throw new ConfigError('Missing TLS_KEY: TLS_CERT is set, and HTTPS needs both files');
  const read = (name: 'TLS_CERT' | 'TLS_KEY', file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`Invalid ${name}=${JSON.stringify(file)}: ${(error as Error).message}`);
    }
  };
  const tls = { cert: read('TLS_CERT', e.TLS_CERT), key: read('TLS_KEY', e.TLS_KEY) };
  const invalid = (name: 'TLS_CERT' | 'TLS_KEY', why: string) =>
    new ConfigError(`Invalid ${name}=${JSON.stringify(e[name])}: ${why}`);
  let certificate: X509Certificate;
  let key: KeyObject;
  try {
    certificate = new X509Certificate(tls.cert);
  } catch {
    throw invalid('TLS_CERT', 'expected a PEM certificate (-----BEGIN CERTIFICATE-----)');
  }
  try {
    key = createPrivateKey(tls.key);
  } catch {
    throw invalid('TLS_KEY', 'expected an unencrypted PEM private key (-----BEGIN PRIVATE KEY-----)');
  }
  if (!certificate.checkPrivateKey(key)) throw invalid('TLS_KEY', 'not the key of the TLS_CERT certificate');
  return Object.freeze(tls);
}

function baseConfig(e: z.output<typeof Env>, stdoutIsTTY: boolean) {
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
