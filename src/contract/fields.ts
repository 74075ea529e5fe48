import { z } from 'zod';

/** How a moment of a video is refused, in the same words wherever one is sent (notes, questions, checkpoints). */
export const momentMessages = {
  timeInvalid: 't must be a number of seconds within the video.',
  timeOutside: 'That moment is outside the video.',
} as const;

/** A moment of the video in seconds (checked against the video's length by the server). */
export const Moment = z
  .number({ error: momentMessages.timeInvalid })
  .finite(momentMessages.timeInvalid)
  .min(0, momentMessages.timeOutside)
  .max(24 * 3600, momentMessages.timeOutside);

/** The path parameters that name a video, a course or a student, one schema each for every route. */
export const VideoIdParam = z.object({ videoId: z.string() });
export const CourseIdParam = z.object({ courseId: z.string() });
export const StudentIdParam = z.object({ studentId: z.string() });

/** A text trimmed, then of `min` to `max` characters; every refusal says `message`. */
export const boundedText = (max: number, message: string, min = 1) =>
  z.string({ error: message }).trim().min(min, message).max(max, message);
