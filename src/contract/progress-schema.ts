import { z } from 'zod';
import { PlaybackHealthReport } from './playback-health-schema';
import {
  progressMessages,
  saveLimits,
  type CourseProgress as CourseProgressShape,
  type ProgressBody as ProgressBodyShape,
  type ProgressResponse as ProgressResponseShape,
  type VideoProgress as VideoProgressShape,
} from './progress';

const seconds = (field: string) =>
  z
    .number({ error: `${field} must be a number of seconds.` })
    .finite(`${field} must be a number of seconds.`)
    .min(0, `${field} must be a number of seconds.`)
    .max(7 * 24 * 3600, `${field} must be a number of seconds.`);

const rangeSecond = z
  .number({ error: progressMessages.rangesInvalid })
  .finite(progressMessages.rangesInvalid)
  .min(0, progressMessages.rangesInvalid)
  .max(7 * 24 * 3600, progressMessages.rangesInvalid);

/** Played intervals: each start before its end, each after the previous one (the video's length is the server's check). */
const WatchRanges = z
  .array(z.tuple([rangeSecond, rangeSecond], { error: progressMessages.rangesInvalid }), {
    error: progressMessages.rangesInvalid,
  })
  .max(saveLimits.ranges, progressMessages.tooManyRanges)
  .refine(
    (ranges) => ranges.every(([start, end], i) => start < end && (i === 0 || start >= ranges[i - 1]![1])),
    progressMessages.rangesInvalid,
  );

/** POST /api/progress: where the student is in a video, and what they played since the previous save. */
export const ProgressBody = z.object({
  videoId: z.uuid({ error: 'videoId must be a video id.' }),
  position: seconds('position'),
  watched: seconds('watched'),
  ranges: WatchRanges.optional(),
  rate: z
    .number({ error: progressMessages.rateInvalid })
    .min(saveLimits.minRate, progressMessages.rateInvalid)
    .max(saveLimits.watchRate, progressMessages.rateInvalid)
    .optional(),
  health: PlaybackHealthReport.optional(),
}) satisfies z.ZodType<ProgressBodyShape>;

export const VideoProgress = z.strictObject({
  position: z.number().min(0),
  watched: z.number().min(0),
  completed: z.boolean(),
}) satisfies z.ZodType<VideoProgressShape>;

export const CourseProgress = z.strictObject({
  total: z.number().int().min(0),
  completed: z.number().int().min(0),
  nextVideoId: z.string().nullable(),
  watchedShare: z.number().min(0).max(1),
}) satisfies z.ZodType<CourseProgressShape>;

export const ProgressResponse = z.strictObject({
  progress: VideoProgress,
}) satisfies z.ZodType<ProgressResponseShape>;
