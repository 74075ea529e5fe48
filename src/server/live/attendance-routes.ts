import type { FastifyPluginAsync } from 'fastify';
import { LIVE_ATTENDANCE_CSV_HEADER } from '../../contract/live-attendance';
import { csvFileName, csvStream } from '../analytics/csv';
import type { AppContext } from '../context';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import type { KeyHold } from '../media/delivery/routes';
import type { ProgressGate } from '../progress/routes';
import { attendanceCsvRows, classAttendance, noteLiveKey, noteLivePlay } from './attendance';
import { requireLiveClass } from './classes';

/**
 * GET /api/admin/live-classes/:classId/attendance: staff of the class's course (the route table's
 * `live-class` scope checked it before this runs); `?format=csv` downloads the same rows.
 */
export const liveAttendanceRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /api/admin/live-classes/:classId/attendance': async ({ params, query, reply }) => {
      const row = await requireLiveClass(ctx.db, params.classId);
      const report = await classAttendance(ctx.db, row);
      if (query.format === 'json') return report;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${csvFileName('live-class', row.title, 'attendance')}"`,
        )
        .header('cache-control', 'no-store')
        .send(csvStream(LIVE_ATTENDANCE_CSV_HEADER, attendanceCsvRows(report)));
    },
  });
};

/** The key route's hold with a live class's join noted after it (and after the route's full access check). */
export function withLiveJoin(ctx: Pick<AppContext, 'db' | 'clock'>, hold?: KeyHold): KeyHold {
  return async (user, videoId, periodStartSeconds) => {
    await hold?.(user, videoId, periodStartSeconds);
    await noteLiveKey(ctx.db, user, videoId, ctx.clock.now());
  };
}

/** The progress saves' gate with the seconds a save played of a live class's lecture added to its attendance. */
export function withLivePlay(ctx: Pick<AppContext, 'db' | 'clock'>, gate?: ProgressGate): ProgressGate {
  return async (user, videoId) => {
    const ticket = (await gate?.(user, videoId)) ?? { limit: null, saved: async () => undefined };
    return {
      limit: ticket.limit,
      saved: async (ranges, newlyCompleted) => {
        await ticket.saved(ranges, newlyCompleted);
        const seconds = ranges.reduce((sum, [start, end]) => sum + Math.max(0, end - start), 0);
        await noteLivePlay(ctx.db, user, videoId, seconds, ctx.clock.now());
      },
    };
  };
}
