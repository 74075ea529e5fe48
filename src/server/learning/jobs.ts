import type { AppContext } from '../context';
import type { JobHandler } from '../jobs/types';
import { createMediaTools } from '../storage/ffmpeg';
import { digestHandler, digestResendHandler } from './digest';
import { frameHandler } from './frames';
import './job-types';

export { DIGEST_EVERY_MS, LEARNING_TYPE_LIMITS } from './job-types';

/** The learning domain's job handlers, for the registry. */
export function learningJobHandlers(ctx: AppContext): {
  'learning.frame': JobHandler<'learning.frame'>;
  'learning.digest': JobHandler<'learning.digest'>;
  'learning.digest-resend': JobHandler<'learning.digest-resend'>;
} {
  return {
    'learning.frame': frameHandler(ctx, { tools: createMediaTools(ctx.config) }),
    'learning.digest': digestHandler(ctx),
    'learning.digest-resend': digestResendHandler(ctx),
  };
}
