/** The doctor's lines about the database and the keys: schema, clock, backups, video keys, signing key. */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { backupMessages } from '../../contract/backups';
import { VIDEOS_WITHOUT_KEYS_SQL } from '../backup/secrets';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { pendingPostDeploy } from '../db/post-deploy';
import { databaseCheck, migrationsCheck } from '../health/checks';
import { storedSecretsState } from '../videos/video-secrets';
import { fromCheck, READINESS_FIXES, type DoctorLine } from './doctor-line';

export const CLOCK_SKEW_WARN_MS = 2_000;

export async function databaseLines(database: Database | undefined, why?: string) {
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

/** Whether backups keep the videos' keys, and videos a keyless restore left without any. */
export async function backupLine(
  config: Readonly<Config>,
  database: Database | undefined,
): Promise<DoctorLine> {
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
export async function videoKeysLine(database: Database, signingKey: Buffer): Promise<DoctorLine | undefined> {
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

export function signingKeyLine(config: Readonly<Config>, key: Buffer | undefined): DoctorLine {
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
