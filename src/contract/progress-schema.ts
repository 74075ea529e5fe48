import { z } from 'zod';
import type { ProgressBody as ProgressBodyShape } from './progress';

const seconds = (field: string) =>
  z
    .number({ error: `${field} must be a number of seconds.` })
    .finite(`${field} must be a number of seconds.`)
    .min(0, `${field} must be a number of seconds.`)
    .max(7 * 24 * 3600, `${field} must be a number of seconds.`);

/** POST /api/progress: where the student is in a video and how much of it they have played in total. */
export const ProgressBody = z.object({
  videoId: z.uuid({ error: 'videoId must be a video id.' }),
  position: seconds('position'),
  watched: seconds('watched'),
}) satisfies z.ZodType<ProgressBodyShape>;
