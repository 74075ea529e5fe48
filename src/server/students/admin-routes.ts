import type { FastifyPluginAsync } from 'fastify';
import { adminMessages, adminToasts } from '../../contract/messages';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { previewStudentImport } from '../accounts/student-import';
import { registerRoutes } from '../http/route-table';
import { courseScope } from '../http/staff-scope';
import { listStudents } from './student-list';
import {
  accessHistory,
  addStudent,
  enrolStudents,
  importStudents,
  resendInitialPassword,
} from './student-service';
import { plural } from '../../contract/plural';

/** Student management beyond the spec (base /api/admin/students). */
export const studentAdminRoutes: FastifyPluginAsync<AccountRouteOptions> = async (
  app,
  { ctx, auth, sessions },
) => {
  const zone = ctx.config.openTimeZone;
  registerRoutes(app, auth, {
    // An instructor sees the students of their courses (read-only): never the unassigned ones. A
    // course filter is checked by the route's scope.
    'GET /api/admin/students': ({ session, query }) => {
      const scope = courseScope(session);
      if (scope && query.unassigned)
        return { students: [], total: 0, page: query.page, pageSize: query.pageSize };
      return listStudents(ctx.db, query, ctx.clock.now(), zone, scope);
    },

    'POST /api/admin/students': async ({ body }) => {
      const { student, mailed } = await addStudent(ctx, body);
      const message = mailed ? adminMessages.studentAdded : adminMessages.studentAddedMailFailed;
      return { message, student, mailed };
    },

    'POST /api/admin/students/import/preview': ({ body }) => previewStudentImport(ctx.db, body.csv),

    'POST /api/admin/students/import': async ({ body }) => {
      const result = await importStudents(ctx, body.csv);
      const unmailed = result.mailFailures.length
        ? ` ${plural(result.mailFailures.length, 'initial password')} could not be mailed; re-send them from the list.`
        : '';
      return { message: `Imported ${plural(result.imported, 'student')}.${unmailed}`, ...result };
    },

    'POST /api/admin/students/enrol': async ({ session, body }) => ({
      message: adminToasts.courseAccessGranted,
      ...(await enrolStudents(ctx.db, session.user.id, body, ctx.clock.now(), zone)),
    }),

    'POST /api/admin/students/:studentId/password': async ({ params }) => {
      await resendInitialPassword(ctx, sessions, params.studentId);
      return { message: adminMessages.passwordResent };
    },

    'GET /api/admin/students/:studentId/history': ({ params }) => accessHistory(ctx.db, params.studentId),
  });
};
