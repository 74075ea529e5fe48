import type { AppContext } from '../context';
import type { JobHandler } from '../jobs/types';
import { createMediaTools } from '../media/ffmpeg';
import { digestHandler } from './digest';
import { frameHandler } from './frames';
import './job-types';

export { DIGEST_EVERY_MS, LEARNING_TYPE_LIMITS } from './job-types';

/** The learning domain's job handlers, for the registry. */
export function learningJobHandlers(ctx: AppContext): {
  'learning.frame': JobHandler<'learning.frame'>;
  'learning.digest': JobHandler<'learning.digest'>;
} {
  return {
    'learning.frame': frameHandler(ctx, { tools: createMediaTools(ctx.config) }),
    'learning.digest': digestHandler(ctx),
  };
}
