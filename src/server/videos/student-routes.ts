import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { studentCourseVideos, studentRollno } from './student-videos';

/** The course player's calls (base /api, SPEC.md section 7: POST /videos, POST /rollno). */
export const videoStudentRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  const zone = ctx.config.openTimeZone;
  registerRoutes(app, auth, {
    'POST /api/videos': async ({ session: { user }, body }) => ({
      videos: await studentCourseVideos(ctx.db, user.id, body.courseId, ctx.clock.now(), zone),
    }),
    'POST /api/rollno': async ({ session: { user }, body }) => ({
      rollno: await studentRollno(ctx.db, user, body.courseId, ctx.clock.now(), zone),
    }),
  });
};
