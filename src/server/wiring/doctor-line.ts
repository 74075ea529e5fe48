/** One line of `npm run cli -- doctor`'s report, and the line a shared readiness check makes. */
import { runCheck, type HealthCheck } from '../health/readiness';

export type Verdict = 'ok' | 'warn' | 'fail';

/** One line of `npm run cli -- doctor`: what was checked, how it stands, and what to do about it. */
export interface DoctorLine {
  verdict: Verdict;
  name: string;
  detail: string;
  fix?: string;
}

/** Fixes for the shared readiness checks, by name (the checks say what is wrong, these say what to do). */
export const READINESS_FIXES: Record<string, string> = {
  database: 'check DATABASE_URL and that PostgreSQL is running and reachable from this machine',
  migrations: 'start this version once (nodes migrate at start); a newer schema needs the newer version',
  store: 'MEDIA_STORE=s3: check S3_ENDPOINT, S3_BUCKET and the credentials; local: DATA_DIR must be writable',
  redis: 'check REDIS_URL and that Redis is running',
  ffmpeg: 'install ffmpeg (Debian package ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH',
  disk: 'free space in DATA_DIR (old uploads, logs) or give it a larger disk',
};

/** A readiness check (health/checks.ts) as a doctor line: `/readyz` and the doctor cannot disagree. */
export async function fromCheck(check: HealthCheck, fix?: string): Promise<DoctorLine> {
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
