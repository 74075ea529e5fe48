import type { FastifyPluginAsync } from 'fastify';
import type { WatchRange } from '../../contract/progress';
import type { Role } from '../db/schema';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { recordPlaybackHealth } from '../metrics/playback-health';
import { saveProgress } from './save-progress';
import { requireOpenOrRunningClass } from '../http/opening-gate';

/** Health reports a student's players may add per minute: a player sends one every few saves at most. */
const HEALTH_REPORTS_PER_MINUTE = 20;

/**
 * What else a save answers to (checkpoints/hold.ts, attached by the wiring): before it, the second
 * it is clipped at (null: none); after it, what was played and whether the save completed the video.
 */
export type ProgressGate = (
  user: { id: string; role: Role },
  videoId: string,
) => Promise<{
  limit: number | null;
  saved(ranges: readonly WatchRange[], newlyCompleted: boolean): Promise<void>;
}>;

/** A save with nothing past `limit`: ranges cut there, the position and an old client's total at most it. */
function clipSave<B extends { position: number; watched: number; ranges?: WatchRange[] }>(
  body: B,
  limit: number,
): B {
  const ranges = body.ranges
    ?.filter(([start]) => start < limit)
    .map(([start, end]) => [start, Math.min(end, limit)] as WatchRange);
  return {
    ...body,
    position: Math.min(body.position, limit),
    watched: Math.min(body.watched, limit),
    ...(ranges && { ranges }),
  };
}

/** The player's progress saves (base /api): POST /progress { videoId, position, watched, ranges?, health? }. */
export const progressRoutes: FastifyPluginAsync<RouteOptions & { gate?: ProgressGate }> = async (
  app,
  { ctx, auth, gate },
) => {
  registerRoutes(app, auth, {
    'POST /api/progress': async ({ session: { user }, body: sent, request }) => {
      // The student API's opening gate, here: a live class under way is watched (and saved) to its end.
      await requireOpenOrRunningClass(ctx, user, sent.videoId);
      const now = ctx.clock.now();
      const ticket = await gate?.(user, sent.videoId);
      const body = ticket?.limit != null ? clipSave(sent, ticket.limit) : sent;
      const { progress, newlyCompleted } = await saveProgress(
        ctx.db,
        user,
        body,
        now,
        ctx.config.openTimeZone,
      );
      await ticket?.saved(body.ranges ?? [], newlyCompleted);
      // After the save: it checked the student may watch the video. More reports than a player
      // sends are dropped (the save itself still counts); a failure to keep one fails nothing.
      if (body.health) {
        const hit = await ctx.rateCounter.hit(`health:${user.id}`, 60_000);
        if (hit.count <= HEALTH_REPORTS_PER_MINUTE) {
          await recordPlaybackHealth(ctx.db, ctx.metrics, {
            userId: user.id,
            videoId: body.videoId,
            userAgent: request.headers['user-agent'],
            report: body.health,
            now,
          }).catch((error: unknown) => request.log.warn({ err: error }, 'a playback health report was lost'));
        }
      }
      return { progress };
    },
  });
};
