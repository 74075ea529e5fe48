import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { systemClock } from '../clock';
import { backupMessages } from '../../contract/backups';
import { VIDEOS_WITHOUT_KEYS_SQL } from '../backup/secrets';
import { ConfigError, SETTING_NAMES, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { DatabaseInUseError } from '../db/embedded-lock';
import { pendingPostDeploy } from '../db/post-deploy';
import { speechCommandCheck } from '../search/health-check';
import { checkTesseract } from '../search/ocr';
import { nginxSite } from '../media/delivery/nginx-config';
import { nginxLinkSecret } from '../media/delivery/segment-urls';
import { createMediaStores } from '../storage';
import { createS3Client } from '../storage/s3-client';
import { bucketCorsOrigins } from '../storage/bucket-cors';
import { createRateCounter } from '../rate-limit/rate-counter';
import { existingSigningKey } from '../signing-key';
import { storedSecretsState } from '../videos/video-secrets';
import {
  databaseCheck,
  diskCheck,
  ffmpegCheck,
  freeBytes,
  migrationsCheck,
  redisCheck,
  storeCheck,
} from '../health/checks';
import { oneLine, runCheck, type HealthCheck } from '../health/readiness';

export type Verdict = 'ok' | 'warn' | 'fail';

/** One line of `npm run cli -- doctor`: what was checked, how it stands, and what to do about it. */
export interface DoctorLine {
  verdict: Verdict;
  name: string;
  detail: string;
  fix?: string;
}

export interface DoctorOptions {
  /** SEGMENT_DELIVERY=nginx: the installed site to compare with `nginx:config`'s output. */
  nginxSite?: string;
  /** The `nginx:config` options the site was made with. */
  listen?: string;
  lectern?: string;
}

export const DISK_WARN_BYTES = 5e9;
export const CLOCK_SKEW_WARN_MS = 2_000;

const SECRET_NAME = /KEY|SECRET|PASSWORD|TOKEN/;

/** A setting as the doctor prints it: secrets hidden, passwords in URLs hidden. */
export function maskSetting(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return '•••';
  return value.replace(/(\/\/[^/\s:@]*:)[^@/\s]*@/, '$1•••@');
}

/** Fixes for the shared readiness checks, by name (the checks say what is wrong, these say what to do). */
const READINESS_FIXES: Record<string, string> = {
  database: 'check DATABASE_URL and that PostgreSQL is running and reachable from this machine',
  migrations: 'start this version once (nodes migrate at start); a newer schema needs the newer version',
  store: 'MEDIA_STORE=s3: check S3_ENDPOINT, S3_BUCKET and the credentials; local: DATA_DIR must be writable',
  redis: 'check REDIS_URL and that Redis is running',
  ffmpeg: 'install ffmpeg (Debian package ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH',
  disk: 'free space in DATA_DIR (old uploads, logs) or give it a larger disk',
};

/** Text on screen for search (SEARCH_OCR=on): a warning, never a fail (playback goes on without it). */
async function tesseractLine(config: Config): Promise<DoctorLine> {
  try {
    await checkTesseract(config.tesseractPath, config.ocrLangs);
    return { verdict: 'ok', name: 'tesseract', detail: `OCR_LANGS ${config.ocrLangs}` };
  } catch (error) {
    return {
      verdict: 'warn',
      name: 'tesseract',
      detail: `${oneLine(error)}; screen-text indexing waits, search answers from what is indexed`,
      fix: 'apt-get install tesseract-ocr tesseract-ocr-eng (and each OCR_LANGS language), or SEARCH_OCR=off',
    };
  }
}

/** SPEECH_COMMAND's program (a warning, as Tesseract's: search answers from what is indexed). */
async function speechLine(command: string): Promise<DoctorLine> {
  const line = await fromCheck(speechCommandCheck(command));
  if (line.verdict === 'ok') return { ...line, detail: 'its program is there' };
  return {
    ...line,
    verdict: 'warn',
    detail: `${line.detail}; speech indexing fails, search answers from what is indexed`,
    fix: 'install the program SPEECH_COMMAND names (docs/SEARCH.md), or unset SPEECH_COMMAND',
  };
}

async function fromCheck(check: HealthCheck, fix?: string): Promise<DoctorLine> {
  const result = await runCheck(check);
  return result.ok
    ? { verdict: 'ok', name: check.name, detail: `answered in ${result.ms} ms` }
    : {
        verdict: 'fail',
        name: check.name,
        detail: result.error ?? 'failed',
        fix: fix ?? READINESS_FIXES[check.name],
      };
}

function settingsLine(env: NodeJS.ProcessEnv): DoctorLine {
  const set = SETTING_NAMES.filter((name) => env[name]);
  return {
    verdict: 'ok',
    name: 'settings',
    detail: set.length
      ? set.map((name) => `${name}=${maskSetting(name, env[name]!)}`).join(' ')
      : 'all defaults (see .env.example)',
  };
}

/** The oldest Node.js Lectern runs on: package.json's engines (its dependencies need 22.19). */
export const MIN_NODE = '22.19';

/** The Node.js running this command (npm's scripts run the one `npm install` put in node_modules/.bin). */
export function nodeLine(version = process.version, execPath = process.execPath): DoctorLine {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = MIN_NODE.split('.').map(Number);
  const detail = `${version} (${execPath})`;
  return major > minMajor || (major === minMajor && minor >= minMinor)
    ? { verdict: 'ok', name: 'node', detail }
    : {
        verdict: 'fail',
        name: 'node',
        detail: `${detail}: Lectern needs Node.js ${MIN_NODE}+ (24 LTS)`,
        fix: 'run it through npm (npm run cli, npm run serve), or install Node.js 24: README, Prerequisites',
      };
}

async function databaseLines(database: Database | undefined, why?: string) {
  if (!database)
    return [
      {
        verdict: why?.includes('in use') ? 'warn' : 'fail',
        name: 'database',
        detail: why ?? 'could not open',
        fix: why?.includes('in use')
          ? 'the embedded database belongs to the running server: stop it to check the database, or use PostgreSQL'
          : READINESS_FIXES.database,
      } satisfies DoctorLine,
    ];
  const ctx = { db: database.db };
  const lines = [await fromCheck(databaseCheck(ctx))];
  if (lines[0]!.verdict === 'fail') return lines;
  lines.push(await fromCheck(migrationsCheck(ctx)));
  const postDeploy = await pendingPostDeploy(database.db).catch(() => []);
  if (postDeploy.length)
    lines.push({
      verdict: 'warn',
      name: 'post-deploy',
      detail: `${postDeploy.length} contract migration(s) not applied: ${postDeploy.join(', ')}`,
      fix: 'once every node runs this version: npm run cli -- migrate:post-deploy',
    });
  lines.push(await clockLine(database));
  return lines;
}

/** This machine's clock against the database's (signed links and codes expire by the clock). */
async function clockLine(database: Database): Promise<DoctorLine> {
  const before = Date.now();
  const rows = await database.db.execute(sql`select extract(epoch from clock_timestamp()) * 1000 as now`);
  const after = Date.now();
  const theirs = Number((rows.rows[0] as { now: string | number }).now);
  const skew = Math.round(theirs - (before + after) / 2);
  const text = `${Math.abs(skew)} ms ${skew >= 0 ? 'behind' : 'ahead of'} the database`;
  return Math.abs(skew) > CLOCK_SKEW_WARN_MS
    ? {
        verdict: 'warn',
        name: 'clock',
        detail: text,
        fix: 'run NTP (systemd-timesyncd or chrony) on this machine and the database',
      }
    : { verdict: 'ok', name: 'clock', detail: text };
}

async function mailLine(config: Readonly<Config>): Promise<DoctorLine> {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    try {
      await Promise.race([
        transport.verify(),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('no answer within 10 s')), 10_000).unref(),
        ),
      ]);
      return { verdict: 'ok', name: 'mail', detail: `SMTP ${new URL(config.smtpUrl).host} answered EHLO` };
    } catch (error) {
      return {
        verdict: 'fail',
        name: 'mail',
        detail: `SMTP ${new URL(config.smtpUrl).host}: ${oneLine(error)}`,
        fix: 'check SMTP_URL (host, port, user and password) and that the server is reachable',
      };
    } finally {
      transport.close();
    }
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const probe = path.join(outbox, `.doctor-${process.pid}`);
  try {
    await mkdir(outbox, { recursive: true });
    await writeFile(probe, 'doctor');
    await rm(probe);
    return {
      verdict: 'ok',
      name: 'mail',
      detail: 'no SMTP_URL: mail goes to DATA_DIR/outbox, which is writable',
    };
  } catch (error) {
    return {
      verdict: 'fail',
      name: 'mail',
      detail: `outbox not writable: ${oneLine(error)}`,
      fix: 'make DATA_DIR/outbox writable by this user, or set SMTP_URL',
    };
  }
}

async function encodersLine(config: Readonly<Config>): Promise<DoctorLine> {
  try {
    const { stdout } = await promisify(execFile)(config.ffmpegPath, ['-hide_banner', '-encoders'], {
      timeout: 10_000,
    });
    const missing = ['libx264', 'aac'].filter(
      (name) => !new RegExp(`^\\s*\\S+\\s+${name}\\s`, 'm').test(stdout),
    );
    return missing.length
      ? {
          verdict: 'fail',
          name: 'encoders',
          detail: `ffmpeg lacks ${missing.join(' and ')}`,
          fix: "install Debian's ffmpeg (it has libx264 and aac)",
        }
      : { verdict: 'ok', name: 'encoders', detail: 'ffmpeg has libx264 and aac' };
  } catch (error) {
    return { verdict: 'fail', name: 'encoders', detail: oneLine(error), fix: READINESS_FIXES.ffmpeg };
  }
}

async function diskLine(config: Readonly<Config>): Promise<DoctorLine> {
  const line = await fromCheck(diskCheck(config));
  if (line.verdict === 'fail') return line;
  const free = await freeBytes(config.dataDir);
  const detail = `${(free / 1e9).toFixed(1)} GB free in ${config.dataDir}`;
  return free < DISK_WARN_BYTES
    ? {
        verdict: 'warn',
        name: 'disk',
        detail,
        fix: 'keep 5 GB free: an upload is copied once into DATA_DIR while ffmpeg packages it',
      }
    : { verdict: 'ok', name: 'disk', detail };
}

/** Whether backups keep the videos' keys, and videos a keyless restore left without any. */
async function backupLine(config: Readonly<Config>, database: Database | undefined): Promise<DoctorLine> {
  const rows = database
    ? await database.db.execute(sql.raw(VIDEOS_WITHOUT_KEYS_SQL)).catch(() => undefined)
    : undefined;
  const keyless = Number((rows?.rows[0] as { n?: number } | undefined)?.n ?? 0);
  if (keyless)
    return {
      verdict: 'warn',
      name: 'backups',
      detail: `${keyless} ready video(s) have no segment key (restored from a backup taken without BACKUP_PASSPHRASE)`,
      fix: 'npm run cli -- media:rekey',
    };
  return config.backup.passphrase
    ? {
        verdict: 'ok',
        name: 'backups',
        detail: 'BACKUP_PASSPHRASE is set: backups are encrypted and hold the video keys and signing key',
      }
    : {
        verdict: 'warn',
        name: 'backups',
        detail: backupMessages.keysLeftOut,
        fix: 'set BACKUP_PASSPHRASE (12 characters or more, kept apart from the backups) on every node',
      };
}

/** Whether the stored video keys open with this signing key, and any still stored plain. */
async function videoKeysLine(database: Database, signingKey: Buffer): Promise<DoctorLine | undefined> {
  let state: Awaited<ReturnType<typeof storedSecretsState>>;
  try {
    state = await storedSecretsState({ db: database.db, signingKey });
  } catch {
    return undefined; // a schema this code does not know: the migrations line says so
  }
  if (state.videosUnreadable)
    return {
      verdict: 'fail',
      name: 'video keys',
      detail: `${state.videosUnreadable} video(s) have keys that do not open with this signing key (written under another SIGNING_KEY): they answer 503`,
      fix: 'set SIGNING_KEY (or DATA_DIR/signing.key) back to the key they were written with, or run npm run cli -- media:rewrap-keys --old-signing-key KEY',
    };
  if (state.plain)
    return {
      verdict: 'warn',
      name: 'video keys',
      detail: `${state.plain} video key(s) or secret(s) stored plain (written before keys were wrapped)`,
      fix: 'once every node runs this version: npm run cli -- migrate:post-deploy (it wraps them)',
    };
  return { verdict: 'ok', name: 'video keys', detail: 'wrapped under a key derived from the signing key' };
}

function signingKeyLine(config: Readonly<Config>, key: Buffer | undefined): DoctorLine {
  if (!key)
    return {
      verdict: config.databaseUrl?.startsWith('postgres') ? 'warn' : 'ok',
      name: 'signing key',
      detail: 'none yet: the first start generates DATA_DIR/signing.key',
      fix: config.databaseUrl?.startsWith('postgres')
        ? 'several nodes: set the same SIGNING_KEY on every node'
        : undefined,
    };
  const fingerprint = createHash('sha256').update(key).digest('hex').slice(0, 16);
  const several = config.databaseUrl?.startsWith('postgres') && !config.signingKey;
  return {
    verdict: several ? 'warn' : 'ok',
    name: 'signing key',
    detail: `fingerprint ${fingerprint} (${config.signingKey ? 'SIGNING_KEY' : 'DATA_DIR/signing.key'}): must be the same on every node`,
    fix: several
      ? 'on PostgreSQL with several nodes, set SIGNING_KEY (the same on every node) instead of the generated file'
      : undefined,
  };
}

function nginxLine(
  config: Readonly<Config>,
  key: Buffer | undefined,
  options: DoctorOptions,
): DoctorLine | undefined {
  if (config.segmentDelivery !== 'nginx') return undefined;
  const file = options.nginxSite ?? '/etc/nginx/sites-enabled/lectern';
  const regenerate = `npm run cli -- nginx:config --listen ${options.listen ?? '80'} --lectern ${options.lectern ?? `${config.host}:${config.port}`} > ${file}, then nginx -s reload`;
  if (!existsSync(file))
    return {
      verdict: 'warn',
      name: 'nginx site',
      detail: `no site at ${file} (--nginx-site names another)`,
      fix: regenerate,
    };
  if (!key)
    return {
      verdict: 'warn',
      name: 'nginx site',
      detail: 'no signing key yet to compare with',
      fix: 'start Lectern once, then run the doctor again',
    };
  const expected = nginxSite({
    listen: options.listen ?? '80',
    lectern: options.lectern ?? `${config.host}:${config.port}`,
    videosDir: path.join(config.dataDir, 'media', 'videos'),
    secret: nginxLinkSecret(key),
  });
  const norm = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== '');
  const [want, have] = [norm(expected), norm(readFileSync(file, 'utf8'))];
  const at = want.findIndex((line, i) => have[i] !== line);
  if (at === -1 && want.length === have.length)
    return { verdict: 'ok', name: 'nginx site', detail: `${file} matches nginx:config` };
  // The site holds a secret: name the line, never print it.
  const secretLine = /secure_link|secret/.test(want[at] ?? have[at] ?? '');
  return {
    verdict: 'fail',
    name: 'nginx site',
    detail: `${file} differs from nginx:config at line ${at === -1 ? want.length + 1 : at + 1}${secretLine ? ' (the link secret: is SIGNING_KEY the same as when it was made?)' : ''}`,
    fix: regenerate,
  };
}

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

/**
 * SEGMENT_DELIVERY=s3 with the bucket itself serving segments: browsers fetch them from another
 * origin, which the bucket's CORS rules must allow (a CDN in front answers for itself).
 */
async function bucketCorsLine(config: Readonly<Config>): Promise<DoctorLine | undefined> {
  if (config.segmentDelivery !== 's3' || config.segmentBaseUrl || !config.s3) return undefined;
  const fix = 'npm run cli -- media:cors --origin https://<the address students open>';
  const client = createS3Client(config.s3);
  try {
    const origins = await bucketCorsOrigins(client, config.s3.bucket);
    if (!origins.length)
      return { verdict: 'fail', name: 'bucket CORS', detail: 'no rule lets a browser GET segments', fix };
    return { verdict: 'ok', name: 'bucket CORS', detail: `GET allowed from ${origins.join(', ')}` };
  } catch (error) {
    return {
      verdict: 'warn',
      name: 'bucket CORS',
      detail: `could not read the rules: ${oneLine(error)}`,
      fix,
    };
  } finally {
    client.destroy();
  }
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
