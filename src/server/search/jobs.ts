import type { AppContext } from '../context';
import type { JobHandler } from '../jobs/types';
import { createMediaTools } from '../storage/ffmpeg';
import { searchIndexHandler } from './index-job';
import './job-types';

export { SEARCH_TYPE_LIMITS } from './job-types';
export { queueNewVideos } from './index-queue';

/** The search index's job handler, for the registry. */
export function searchJobHandlers(ctx: AppContext): { 'search.index': JobHandler<'search.index'> } {
  return { 'search.index': searchIndexHandler(ctx, { tools: createMediaTools(ctx.config) }) };
}
