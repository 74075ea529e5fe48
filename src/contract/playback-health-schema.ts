import { z } from 'zod';
import {
  BROWSER_FAMILIES,
  HEALTH_ERROR_PATTERN,
  healthMessages,
  type PlaybackHealth as PlaybackHealthShape,
  type PlaybackHealthReport as PlaybackHealthReportShape,
} from './playback-health';

/** Not negative, finite, a number: anything else is a broken client (400). Large values are clamped by the server. */
const amount = z
  .number({ error: healthMessages.invalid })
  .finite(healthMessages.invalid)
  .min(0, healthMessages.invalid);

/** The `health` part of POST /api/progress (optional: old players send none). */
export const PlaybackHealthReport = z.object(
  {
    startupMs: amount.optional(),
    stalls: amount,
    stallMs: amount,
    playedMs: amount,
    error: z
      .string({ error: healthMessages.invalid })
      .regex(HEALTH_ERROR_PATTERN, healthMessages.invalid)
      .optional(),
  },
  { error: healthMessages.invalid },
) satisfies z.ZodType<PlaybackHealthReportShape>;

const share = z.number().min(0).max(1).nullable();
const seconds = z.number().min(0).nullable();

export const PlaybackHealthResponse = z.strictObject({
  since: z.string(),
  playbacks: z.number().int().min(0),
  startupP50: seconds,
  startupP95: seconds,
  stallRatio: share,
  errorRate: share,
  browsers: z.array(
    z.strictObject({
      browser: z.enum(BROWSER_FAMILIES),
      playbacks: z.number().int().min(0),
      errors: z.number().int().min(0),
    }),
  ),
}) satisfies z.ZodType<PlaybackHealthShape>;
