import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { studentCourses } from './student-courses';

/** The student's course list (base /api, SPEC.md section 7: GET /courses). */
export const courseStudentRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /api/courses': async ({ session: { user } }) => ({
      courses: await studentCourses(ctx.db, user.id, ctx.clock.now(), ctx.config.openTimeZone),
    }),
  });
};
