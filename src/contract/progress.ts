/** Watch progress: constants and shapes shared by the player and the server (zod-free, so the player chunk stays small). */

/** A video counts as completed once this share of its length has actually been played. */
export const COMPLETION_RATIO = 0.9;
/** The player saves the position this often while playing (and on pause and leave). */
export const PROGRESS_SAVE_INTERVAL_MS = 10_000;
/**
 * `watched` may grow by at most this many seconds per second of wall time since the previous save
 * (the fastest playback speed), so a script cannot claim an hour of watching in one call.
 */
export const WATCH_RATE_LIMIT = 2;
/** The first save of a video may claim at most this much (two save intervals at the fastest speed, and some). */
export const FIRST_SAVE_MAX_WATCHED_SECONDS = 30;

export const progressMessages = {
  videoNotFound: 'Video not found.',
  noCourseAccess: 'Your access to this course has expired or been revoked.',
  noVideoAccess: 'You do not have access to this video.',
} as const;

/** A student's progress in one video, as the server keeps it. */
export interface VideoProgress {
  /** Seconds from the start where playback resumes. */
  position: number;
  /** Seconds actually played (seeking does not count), at most the video's length. */
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
}

/** POST /api/progress's body (validated by ProgressBody in progress-schema.ts). */
export interface ProgressBody {
  videoId: string;
  position: number;
  watched: number;
}

export interface ProgressResponse {
  progress: VideoProgress;
}
