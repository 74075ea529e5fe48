import { HEALTH_REPORT_INTERVAL_MS, type PlaybackHealthReport } from '../../contract/playback-health';
import { listen } from '../ui/listen';

/**
 * Watches a <video> for how playback goes, for the health reports that ride on progress saves
 * (issue 19): time from the play request to the first frame, stalls after it (waiting for data
 * while not seeking) and their length, time played, and a fatal error. `take` hands over what
 * accumulated since the previous report, when there is something worth a report.
 */
export class PlaybackHealth {
  private playAskedAt: number | null = null;
  private startupMs: number | undefined;
  private startupSent = false;
  private stalls = 0;
  private stallMs = 0;
  private playedMs = 0;
  private stallSince: number | null = null;
  private playingSince: number | null = null;
  private error: string | undefined;
  private lastReportAt: number;
  private detach: (() => void) | undefined;

  /** Called when a report should go now (a fatal error), not with the next regular save. */
  urgent: (() => void) | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.lastReportAt = now();
  }

  /** Follows `video`'s events until `stop`. */
  watch(video: HTMLVideoElement): () => void {
    this.detach?.();
    const listening = new AbortController();
    const halt = () => {
      const t = this.now();
      this.endStall(t);
      this.pausePlayed(t);
    };
    listen(
      video,
      {
        play: () => {
          this.playAskedAt ??= this.now();
        },
        playing: () => {
          const t = this.now();
          if (this.startupMs === undefined && this.playAskedAt !== null)
            this.startupMs = t - this.playAskedAt;
          this.endStall(t);
          this.playingSince ??= t;
        },
        waiting: () => {
          const t = this.now();
          this.pausePlayed(t);
          // Before the first frame it is startup; during a seek it is the seek.
          if (this.startupMs === undefined || video.seeking || this.stallSince !== null) return;
          this.stalls++;
          this.stallSince = t;
        },
        pause: halt,
        ended: halt,
        seeking: halt,
        emptied: halt,
      },
      listening.signal,
    );
    this.detach = () => listening.abort();
    return this.detach;
  }

  /** A fatal error ended playback: reported at once. */
  fail(code: string): void {
    this.error = code.replace(/[^A-Za-z0-9_.:-]/g, '-').slice(0, 80) || 'unknown';
    const t = this.now();
    this.endStall(t);
    this.pausePlayed(t);
    this.urgent?.();
  }

  /**
   * What happened since the previous report, if it is worth one: a first frame, an error, a stall,
   * or played time once HEALTH_REPORT_INTERVAL_MS passed (or `final`, as the player goes away).
   */
  take(final = false): PlaybackHealthReport | undefined {
    const t = this.now();
    // Running stall and play time count up to now, and go on counting from now.
    if (this.stallSince !== null) {
      this.stallMs += t - this.stallSince;
      this.stallSince = t;
    }
    if (this.playingSince !== null) {
      this.playedMs += t - this.playingSince;
      this.playingSince = t;
    }
    const startup = !this.startupSent && this.startupMs !== undefined;
    const due =
      startup ||
      this.error !== undefined ||
      this.stalls > 0 ||
      (this.playedMs >= 1 && (final || t - this.lastReportAt >= HEALTH_REPORT_INTERVAL_MS));
    if (!due) return undefined;
    const report: PlaybackHealthReport = {
      stalls: this.stalls,
      stallMs: Math.round(this.stallMs),
      playedMs: Math.round(this.playedMs),
    };
    if (startup) report.startupMs = Math.round(this.startupMs!);
    if (this.error !== undefined) report.error = this.error;
    this.startupSent ||= startup;
    this.stalls = 0;
    this.stallMs = 0;
    this.playedMs = 0;
    this.error = undefined;
    this.lastReportAt = t;
    return report;
  }

  /** A report whose save failed on the way goes with the next one. */
  giveBack(report: PlaybackHealthReport): void {
    if (report.startupMs !== undefined) this.startupSent = false;
    this.stalls += report.stalls;
    this.stallMs += report.stallMs;
    this.playedMs += report.playedMs;
    this.error ??= report.error;
  }

  private endStall(t: number) {
    if (this.stallSince === null) return;
    this.stallMs += t - this.stallSince;
    this.stallSince = null;
  }

  private pausePlayed(t: number) {
    if (this.playingSince === null) return;
    this.playedMs += t - this.playingSince;
    this.playingSince = null;
  }
}
