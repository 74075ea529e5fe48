import { purgeExpiredHandler } from '../accounts/housekeeping';
import { backupRunHandler } from '../backup/run-job';
import { queueScheduledBackup } from '../backup/schedule';
import type { AppContext } from '../context';
import { FORENSIC_TYPE_LIMITS } from '../forensic/trace-job-types';
import { traceRunHandler } from '../forensic/trace-job';
import { liveJobHandlers } from '../live/reminders';
import { LIVE_MAILS_EVERY_MS, LIVE_TYPE_LIMITS } from '../live/job-types';
import { recordingHandler } from '../live/recording';
import { createMediaTools } from '../storage/ffmpeg';
import { DIGEST_EVERY_MS, learningJobHandlers, LEARNING_TYPE_LIMITS } from '../learning/jobs';
import { purgeTraceFilesHandler } from '../forensic/trace-purge';
import { mediaJobHandlers, MEDIA_TYPE_LIMITS } from '../media/jobs';
import { purgePlaybackSessionsHandler } from '../playback/housekeeping';
import { queueNewVideos, searchJobHandlers, SEARCH_TYPE_LIMITS } from '../search/jobs';
import type { ScheduledCheck } from '../jobs/runner';
import type { JobHandlers, JobType } from '../jobs/types';

/** The one map from job type to handler; a job type without a handler fails to compile. */
export function jobHandlers(ctx: AppContext): JobHandlers {
  return {
    'accounts.purge-expired': purgeExpiredHandler(ctx),
    'playback.purge-sessions': purgePlaybackSessionsHandler(ctx),
    'backup.run': backupRunHandler(ctx),
    'forensic.trace': traceRunHandler(ctx),
    'forensic.purge-trace-files': purgeTraceFilesHandler(ctx),
    ...mediaJobHandlers(ctx),
    ...searchJobHandlers(ctx),
    ...learningJobHandlers(ctx),
    ...liveJobHandlers(ctx),
    'live.recording': recordingHandler(ctx, { tools: createMediaTools(ctx.config) }),
  };
}

/** Recurring housekeeping the runner schedules: [type, interval]. */
export const recurringJobs = [
  ['accounts.purge-expired', 60 * 60_000],
  ['media.purge-uploads', 60 * 60_000],
  ['playback.purge-sessions', 24 * 60 * 60_000],
  ['forensic.purge-trace-files', 60 * 60_000],
  // Staff's digest of new questions (learning/digest.ts): mails only when there are new ones.
  ['learning.digest', DIGEST_EVERY_MS],
  // Live classes' reminders 24 h and 1 h before, and updates of moved ones (live/reminders.ts).
  ['live.mails', LIVE_MAILS_EVERY_MS],
] as const;

/** Checks the runner repeats on every node; each queues its work at most once across them. */
export const scheduledChecks = (ctx: AppContext): ScheduledCheck[] => [
  { name: 'backup.schedule', everyMs: 60_000, check: () => queueScheduledBackup(ctx) },
  // Search: a packaged video gets its index job (docs/SEARCH.md).
  { name: 'search.new-videos', everyMs: 30_000, check: async () => (await queueNewVideos(ctx)) > 0 },
];

/** Per-type lanes for the runner (see MEDIA_TYPE_LIMITS, FORENSIC_TYPE_LIMITS). */
const jobTypeLimits: Partial<Record<JobType, number>> = {
  ...MEDIA_TYPE_LIMITS,
  ...FORENSIC_TYPE_LIMITS,
  ...SEARCH_TYPE_LIMITS,
  ...LEARNING_TYPE_LIMITS,
  ...LIVE_TYPE_LIMITS,
  'backup.run': 1,
};

/** Jobs that run for minutes in the background: together they leave a slot free (runner.ts). */
export const backgroundJobTypes: readonly JobType[] = [
  'media.ladder',
  'search.index',
  'forensic.trace',
  'live.recording',
  'backup.run',
];

/** The runner's lanes, as every worker (and the tests' runners) take them. */
export const jobLanes = { typeLimits: jobTypeLimits, backgroundTypes: backgroundJobTypes };
