/** Every environment variable Lectern reads, each parsed and checked on its own (index.ts shapes them into `Config`). */
import { isIP } from 'node:net';
import { z } from 'zod';
import type { OpenHours } from '../../contract/opening-hours';
import { Username } from '../../contract/students';
import { ConfigError, type BackupSchedule, type TrustProxy } from './types';

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
  LIVE_RTMP_PULL: z.url({ protocol: /^rtmp$/ }).default('rtmp://127.0.0.1:1935/live'),
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

/** The environment as parsed: each variable's value or default, before it is shaped into `Config`. */
export type Settings = z.output<typeof Env>;

/** Parses the variables set (empty ones count as unset); the first bad one is named. */
export function parseSettings(env: NodeJS.ProcessEnv): Settings {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(present);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0]);
  throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue.message}`);
}
