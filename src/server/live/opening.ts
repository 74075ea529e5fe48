import type { Role } from '../db/schema';
import type { AppContext } from '../context';
import { isUuid } from '../db/ids';
import { closedTo } from '../http/opening-gate';
import { runningClassLecture } from './classes';

/**
 * Opening hours for a student's playback of `videoId` (playlists, keys, the playback session): a 503
 * outside them, except for the lecture of a class under way that started within them, which stays
 * watchable to its end (issue 38, docs/LIVE.md). The class is looked up only once the gate is closed.
 */
export async function requireOpenOrRunningClass(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config'>,
  user: { role: Role },
  videoId: string,
): Promise<void> {
  const now = ctx.clock.now();
  const closed = closedTo(user, now, ctx.config);
  if (!closed) return;
  if (
    isUuid(videoId) &&
    (await runningClassLecture(ctx.db, videoId, now, ctx.config.openHours, ctx.config.openTimeZone))
  )
    return;
  throw closed;
}
