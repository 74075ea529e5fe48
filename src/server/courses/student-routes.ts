import type { FastifyPluginAsync } from 'fastify';
import type { StudentCourse } from '../../contract/courses';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { studentCourses } from './student-courses';

/** The student's course list (base /api, SPEC.md section 7: GET /courses). */
export const courseStudentRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  app.get('/courses', async (request): Promise<{ courses: StudentCourse[] }> => {
    const { user } = await auth.requireStudent(request);
    return { courses: await studentCourses(ctx.db, user.id, ctx.clock.now()) };
  });
};
