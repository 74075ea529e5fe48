import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { systemClock } from '../clock';
import { SETTING_NAMES, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { DatabaseInUseError } from '../db/embedded-lock';
import { pendingPostDeploy } from '../db/post-deploy';
import { nginxSite } from '../media/delivery/nginx-config';
import { nginxLinkSecret } from '../media/delivery/segment-urls';
import { createMediaStores } from '../media/store';
import { createRateCounter } from '../plugins/rate-counter';
import { loadSigningKey } from '../signing-key';
import {
  databaseCheck,
  diskCheck,
  ffmpegCheck,
  freeBytes,
  migrationsCheck,
  redisCheck,
  storeCheck,
} from './checks';
import { oneLine, runCheck, type HealthCheck } from './readiness';

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

/** Existing key only: the doctor never generates one. */
function existingSigningKey(config: Readonly<Config>): Buffer | undefined {
  if (config.signingKey) return loadSigningKey(config.signingKey, config.dataDir);
  return existsSync(path.join(config.dataDir, 'signing.key'))
    ? loadSigningKey(undefined, config.dataDir)
    : undefined;
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
  const lines: DoctorLine[] = [settingsLine(env)];
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
    lines.push(await diskLine(config));
    const key = existingSigningKey(config);
    lines.push(signingKeyLine(config, key));
    const nginx = nginxLine(config, key, options);
    if (nginx) lines.push(nginx);
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
