/**
 * Playback health (issue 19): what the player reports with its progress saves, and the admin
 * panel's figures. Zod-free, so the player chunk stays small (schemas in playback-health-schema.ts).
 */

/** A health report rides on a progress save at least this often while playing, sooner after a stall or an error. */
export const HEALTH_REPORT_INTERVAL_MS = 5 * 60_000;

/** What the server keeps of one report at most: larger figures are forged or broken, and are clamped. */
export const HEALTH_LIMITS = {
  /** A start slower than this is as bad as a failure; it counts as this long. */
  startupMs: 60_000,
  stalls: 100,
  /** Per report: a report comes at least every 5 min of playing, so 15 min of either is generous. */
  stallMs: 15 * 60_000,
  playedMs: 15 * 60_000,
} as const;

/** Error codes are short identifiers (hls.js details such as `fragLoadError`, or `media-error-3`). */
export const HEALTH_ERROR_PATTERN = /^[A-Za-z0-9_.:-]{1,80}$/;

/** The part of a progress save that describes how playback went since the previous report. */
export interface PlaybackHealthReport {
  /** Milliseconds from the play request to the first frame: once per playback. */
  startupMs?: number;
  /** Times playback stopped to wait for data since the previous report (seeks excluded). */
  stalls: number;
  /** Milliseconds spent so stalled. */
  stallMs: number;
  /** Milliseconds of media played since the previous report (the stall ratio's denominator). */
  playedMs: number;
  /** A fatal error that ended playback, as a short code. */
  error?: string;
}

/** The browser families health is broken down by (from the User-Agent, on the server). */
export const BROWSER_FAMILIES = ['chrome', 'edge', 'firefox', 'safari', 'other'] as const;
export type BrowserFamily = (typeof BROWSER_FAMILIES)[number];

/** GET /api/admin/playback-health: the last 24 hours. */
export interface PlaybackHealth {
  /** Start of the window (ISO). */
  since: string;
  /** Playbacks that started (a first frame) or failed. 0: the panel's empty state. */
  playbacks: number;
  /** Seconds to the first frame; null when no playback started. */
  startupP50: number | null;
  startupP95: number | null;
  /** Stalled time over stalled plus played time (0..1); null with nothing played. */
  stallRatio: number | null;
  /** Fatal errors per playback (0..1); null without playbacks. */
  errorRate: number | null;
  /** Playbacks and errors by browser family, most playbacks first. */
  browsers: { browser: BrowserFamily; playbacks: number; errors: number }[];
}

export const healthMessages = {
  invalid: 'health must describe playback: counts and milliseconds of zero or more, and a short error code.',
  loadFailed: 'Could not load playback health.',
  metricsRefused: 'A valid metrics token is required (Authorization: Bearer …).',
} as const;
