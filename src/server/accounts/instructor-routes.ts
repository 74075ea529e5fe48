import type { FastifyPluginAsync } from 'fastify';
import { instructorMessages } from '../../contract/instructors';
import { registerRoutes } from '../http/route-table';
import { assignInstructor, createInstructor, listInstructors, removeInstructor } from './instructors';
import type { AccountRouteOptions } from './student-routes';

/** Admins manage instructors (base /api/admin/instructors); instructors themselves get 403. */
export const instructorAdminRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /api/admin/instructors': async () => ({ instructors: await listInstructors(ctx.db) }),

    'POST /api/admin/instructors': async ({ session, body }) => {
      const { instructor, mailed } = await createInstructor(ctx, body, { adminId: session.user.id });
      return {
        message: mailed ? instructorMessages.created : instructorMessages.createdNotMailed,
        instructor,
      };
    },

    'POST /api/admin/instructors/:userId/courses': async ({ session, params, body }) => ({
      message: instructorMessages.assigned,
      instructor: await assignInstructor(ctx, params.userId, body.courseIds, { adminId: session.user.id }),
    }),

    'DELETE /api/admin/instructors/:userId': async ({ session, params }) => {
      await removeInstructor(ctx, params.userId, { adminId: session.user.id });
      return { message: instructorMessages.removed };
    },
  });
};
