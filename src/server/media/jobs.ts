import type { AppContext } from '../context';
import type { JobHandler } from '../jobs/types';
import { deleteMediaHandler } from './delete-media';
import { createMediaTools } from '../storage/ffmpeg';
import './job-types';
import { ladderHandler } from './packaging/ladder-job';
import { packageVideoHandler } from './packaging/package-job';
import { rekeyCleanupHandler } from './packaging/rekey';
import { purgeUploadsHandler } from './upload/cleanup';

export { MEDIA_TYPE_LIMITS } from './job-types';

/** The streamer's job handlers, for the registry. */
export function mediaJobHandlers(ctx: AppContext): {
  'media.package': JobHandler<'media.package'>;
  'media.ladder': JobHandler<'media.ladder'>;
  'media.delete': JobHandler<'media.delete'>;
  'media.purge-uploads': JobHandler<'media.purge-uploads'>;
  'media.rekey-cleanup': JobHandler<'media.rekey-cleanup'>;
} {
  const deps = { tools: createMediaTools(ctx.config) };
  return {
    'media.package': packageVideoHandler(ctx, deps),
    'media.ladder': ladderHandler(ctx, deps),
    'media.delete': deleteMediaHandler(ctx),
    'media.purge-uploads': purgeUploadsHandler(ctx),
    'media.rekey-cleanup': rekeyCleanupHandler(ctx),
  };
}
