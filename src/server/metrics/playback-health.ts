import { lt, sql } from 'drizzle-orm';
import {
  BROWSER_FAMILIES,
  HEALTH_LIMITS,
  type BrowserFamily,
  type PlaybackHealth,
  type PlaybackHealthReport,
} from '../../contract/playback-health';
import type { Db } from '../db/client';
import { playbackReports } from '../db/schema';
import type { Metrics } from './metrics';

const DAY_MS = 86_400_000;

/** The browser family of a User-Agent (order matters: Edge says Chrome, Chrome says Safari). */
export function browserFamily(userAgent: string | undefined): BrowserFamily {
  const ua = userAgent ?? '';
  if (/\bEdg(e|A|iOS)?\//.test(ua)) return 'edge';
  if (/\b(Firefox|FxiOS)\//.test(ua)) return 'firefox';
  if (/(Chrome|Chromium|CriOS)\//.test(ua)) return 'chrome'; // HeadlessChrome too
  if (/\bVersion\/[\d.]+.*\bSafari\//.test(ua) || /\bAppleWebKit\//.test(ua)) return 'safari';
  return 'other';
}

const clamp = (value: number, max: number) => Math.round(Math.min(Math.max(value, 0), max));

/** A report as the server keeps it: whole milliseconds, each figure within HEALTH_LIMITS. */
export function clampReport(
  report: PlaybackHealthReport,
): Required<Omit<PlaybackHealthReport, 'startupMs' | 'error'>> &
  Pick<PlaybackHealthReport, 'startupMs' | 'error'> {
  return {
    startupMs: report.startupMs === undefined ? undefined : clamp(report.startupMs, HEALTH_LIMITS.startupMs),
    stalls: clamp(report.stalls, HEALTH_LIMITS.stalls),
    stallMs: clamp(report.stallMs, HEALTH_LIMITS.stallMs),
    playedMs: clamp(report.playedMs, HEALTH_LIMITS.playedMs),
    error: report.error,
  };
}

/** Counts one report in the metrics and keeps it for the admin panel. */
export async function recordPlaybackHealth(
  db: Db,
  metrics: Metrics,
  at: {
    userId: string;
    videoId: string;
    userAgent: string | undefined;
    report: PlaybackHealthReport;
    now: Date;
  },
): Promise<void> {
  const report = clampReport(at.report);
  const browser = browserFamily(at.userAgent);
  if (report.startupMs !== undefined) metrics.playbackStartup.observe(report.startupMs / 1000);
  if (report.stalls) metrics.playbackStalls.inc(report.stalls);
  if (report.stallMs) metrics.playbackStallSeconds.inc(report.stallMs / 1000);
  if (report.playedMs) metrics.playbackPlayedSeconds.inc(report.playedMs / 1000);
  if (report.error) metrics.playbackErrors.inc({ browser });
  const nothing =
    report.startupMs === undefined && !report.stalls && !report.stallMs && !report.playedMs && !report.error;
  if (nothing) return;
  await db.insert(playbackReports).values({
    at: at.now,
    userId: at.userId,
    videoId: at.videoId,
    browser,
    startupMs: report.startupMs ?? null,
    stalls: report.stalls,
    stallMs: report.stallMs,
    playedMs: report.playedMs,
    error: report.error ?? null,
  });
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * The admin panel's figures over the 24 hours before `now`. A playback is a first frame or a fatal
 * error (one that failed after playing counts once for each); the stall ratio is stalled time over
 * stalled plus played time.
 */
export async function playbackHealth(db: Db, now: Date): Promise<PlaybackHealth> {
  const since = new Date(now.getTime() - DAY_MS);
  const result = (await db.execute(sql`
    select browser,
           count(*) filter (where startup_ms is not null)::int as starts,
           count(*) filter (where error is not null)::int as errors,
           coalesce(sum(stall_ms), 0)::float8 as stall_ms,
           coalesce(sum(played_ms), 0)::float8 as played_ms,
           (percentile_cont(0.5) within group (order by startup_ms) filter (where startup_ms is not null)) as p50,
           (percentile_cont(0.95) within group (order by startup_ms) filter (where startup_ms is not null)) as p95,
           grouping(browser) as total
    from playback_reports
    where at > ${since.toISOString()}::timestamptz
    group by rollup (browser)`)) as unknown as { rows: Record<string, unknown>[] };
  const total = result.rows.find((r) => num(r.total) === 1);
  const perBrowser = result.rows.filter((r) => num(r.total) === 0);
  const starts = num(total?.starts);
  const errors = num(total?.errors);
  const playbacks = starts + errors;
  const stalled = num(total?.stall_ms);
  const played = num(total?.played_ms);
  const seconds = (v: unknown) => (v === null || v === undefined ? null : Number(v) / 1000);
  return {
    since: since.toISOString(),
    playbacks,
    startupP50: starts ? seconds(total?.p50) : null,
    startupP95: starts ? seconds(total?.p95) : null,
    stallRatio: stalled + played > 0 ? stalled / (stalled + played) : null,
    errorRate: playbacks ? errors / playbacks : null,
    browsers: perBrowser
      .map((r) => ({
        browser: (BROWSER_FAMILIES as readonly string[]).includes(String(r.browser))
          ? (String(r.browser) as BrowserFamily)
          : 'other',
        playbacks: num(r.starts) + num(r.errors),
        errors: num(r.errors),
      }))
      .filter((b) => b.playbacks > 0)
      .sort((a, b) => b.playbacks - a.playbacks || a.browser.localeCompare(b.browser)),
  };
}

/** Reports older than a week go (the panel looks at a day). */
export const REPORT_KEEP_DAYS = 7;

export async function purgePlaybackReports(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(playbackReports)
    .where(lt(playbackReports.at, new Date(now.getTime() - REPORT_KEEP_DAYS * DAY_MS)))
    .returning({ id: playbackReports.id });
  return gone.length;
}
