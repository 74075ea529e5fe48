import type { AppContext } from '../context';
import type { JobHandler } from '../jobs/types';
import { createMediaTools } from './ffmpeg';
import './job-types';
import { ladderHandler } from './packaging/ladder-job';
import { packageVideoHandler } from './packaging/package-job';
import { mediaPaths } from './storage';
import { purgeUploadsHandler } from './upload/cleanup';

export { MEDIA_TYPE_LIMITS } from './job-types';

/** The streamer's job handlers, for the registry. */
export function mediaJobHandlers(ctx: AppContext): {
  'media.package': JobHandler<'media.package'>;
  'media.ladder': JobHandler<'media.ladder'>;
  'media.purge-uploads': JobHandler<'media.purge-uploads'>;
} {
  const deps = { tools: createMediaTools(ctx.config), paths: mediaPaths(ctx.config.dataDir) };
  return {
    'media.package': packageVideoHandler(ctx, deps),
    'media.ladder': ladderHandler(ctx, deps),
    'media.purge-uploads': purgeUploadsHandler(ctx, deps.paths),
  };
}
