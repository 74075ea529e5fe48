import type { FastifyPluginAsync } from 'fastify';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { registerRoutes } from '../http/route-table';
import { studentCourses } from './student-courses';

/** The student's course list (base /api, SPEC.md section 7: GET /courses). */
export const courseStudentRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /api/courses': async ({ session: { user } }) => ({
      courses: await studentCourses(ctx.db, user.id, ctx.clock.now(), ctx.config.openTimeZone),
    }),
  });
};
