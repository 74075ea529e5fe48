/** Watch progress: constants and shapes shared by the player and the server (zod-free, so the player chunk stays small). */
import type { PlaybackHealthReport } from './playback-health';

/** A video counts as completed once this share of its length has actually been played. */
export const COMPLETION_RATIO = 0.9;
/** The player saves the position this often while playing (and on pause and leave). */
export const PROGRESS_SAVE_INTERVAL_MS = 10_000;
/** What one save may claim (server/progress/save-progress.ts and the body's schema check each). */
export const saveLimits = {
  /**
   * `watched` may grow by at most this many seconds per second of wall time since the previous save
   * (the fastest playback speed), so a script cannot claim an hour of watching in one call.
   */
  watchRate: 2,
  /** The first save of a video may claim at most this much (two save intervals at the fastest speed, and some). */
  firstWatchedSeconds: 30,
  /** Seconds of slack on top of watchRate x wall time for a save's `ranges` (timer jitter, a slow request). */
  rangesSlackSeconds: 3,
  /** At most this many played intervals in one save (a student seeking about for 10 s makes a handful). */
  ranges: 64,
  /** The slowest playback rate a save may report (the fastest: watchRate). */
  minRate: 0.25,
} as const;

/** Analytics count viewers and plays per bucket of this many seconds of a video. */
export const BUCKET_SECONDS = 5;

/** A save's own errors; an unknown video or refused access answers with mediaMessages, as playback does. */
export const progressMessages = {
  rangesInvalid:
    'ranges must be [start, end] pairs of seconds inside the video, in order and not overlapping.',
  tooManyRanges: `A save may carry at most ${saveLimits.ranges} ranges.`,
  rangesTooLong: 'ranges claim more playing than the time since the previous save allows.',
  rateInvalid: `rate must be a playback speed between ${saveLimits.minRate} and ${saveLimits.watchRate}.`,
} as const;

/** A student's progress in one video, as the server keeps it. */
export interface VideoProgress {
  /** Seconds from the start where playback resumes. */
  position: number;
  /**
   * Unique seconds actually played (seeking does not count), at most the video's length: the
   * larger of the seconds covered by saved `ranges` and an old client's own `watched` total.
   */
  watched: number;
  completed: boolean;
}

export const NO_PROGRESS: VideoProgress = { position: 0, watched: 0, completed: false };

/** A student's progress in one course, for the dashboard card. */
export interface CourseProgress {
  /** Videos of the course the student may watch. */
  total: number;
  /** Of those, how many are completed. */
  completed: number;
  /** Where "Continue" leads: the video last played while unfinished, else the next unfinished one; null when all are done. */
  nextVideoId: string | null;
  /** Share (0..1) of the length of those videos actually watched. */
  watchedShare: number;
}

/** A played interval of media, `[startSeconds, endSeconds]`. */
export type WatchRange = [number, number];

/** POST /api/progress's body (validated by ProgressBody in progress-schema.ts). */
export interface ProgressBody {
  videoId: string;
  position: number;
  /** An old client's running total; ignored when `ranges` is sent (the ranges are the evidence). */
  watched: number;
  /** The intervals played since the previous save, in order and not overlapping. */
  ranges?: WatchRange[];
  /** The playback rate while they were played. */
  rate?: number;
  /** How playback went since the previous report (startup, stalls, errors); absent from old players. */
  health?: PlaybackHealthReport;
}

export interface ProgressResponse {
  progress: VideoProgress;
}
