import type { FastifyPluginAsync } from 'fastify';
import {
  AddStudentBody,
  EnrolStudentsBody,
  StudentImportBody,
  StudentListQuery,
  type AccessHistoryResponse,
  type ImportPreviewResponse,
  type StudentListResponse,
} from '../../contract/admin-students';
import { adminMessages, adminToasts } from '../../contract/messages';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { previewStudentImport } from '../accounts/student-import';
import { parseInput } from '../errors';
import { listStudents } from './student-list';
import {
  accessHistory,
  addStudent,
  enrolStudents,
  importStudents,
  resendInitialPassword,
} from './student-service';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Student management beyond the spec (base /api/admin/students). */
export const studentAdminRoutes: FastifyPluginAsync<AccountRouteOptions> = async (
  app,
  { ctx, auth, sessions },
) => {
  app.addHook('onRequest', async (request) => {
    await auth.requireAdmin(request);
  });

  app.get('/students', async (request): Promise<StudentListResponse> => {
    const query = parseInput(StudentListQuery, request.query);
    return listStudents(ctx.db, query, ctx.clock.now());
  });

  app.post('/students', async (request, reply) => {
    const body = parseInput(AddStudentBody, request.body);
    const { student, mailed } = await addStudent(ctx, body);
    const message = mailed ? adminMessages.studentAdded : adminMessages.studentAddedMailFailed;
    return reply.status(201).send({ message, student, mailed });
  });

  app.post('/students/import/preview', async (request): Promise<ImportPreviewResponse> => {
    const { csv } = parseInput(StudentImportBody, request.body);
    return previewStudentImport(ctx.db, csv);
  });

  app.post('/students/import', async (request, reply) => {
    const { csv } = parseInput(StudentImportBody, request.body);
    const result = await importStudents(ctx, csv);
    const unmailed = result.mailFailures.length
      ? ` ${plural(result.mailFailures.length, 'initial password')} could not be mailed; re-send them from the list.`
      : '';
    return reply
      .status(201)
      .send({ message: `Imported ${plural(result.imported, 'student')}.${unmailed}`, ...result });
  });

  app.post('/students/enrol', async (request) => {
    const admin = await auth.requireAdmin(request);
    const body = parseInput(EnrolStudentsBody, request.body);
    const counts = await enrolStudents(ctx.db, admin.user.id, body, ctx.clock.now());
    return { message: adminToasts.courseAccessGranted, ...counts };
  });

  app.post<{ Params: { studentId: string } }>('/students/:studentId/password', async (request) => {
    await resendInitialPassword(ctx, sessions, request.params.studentId);
    return { message: adminMessages.passwordResent };
  });

  app.get<{ Params: { studentId: string } }>(
    '/students/:studentId/history',
    async (request): Promise<AccessHistoryResponse> => accessHistory(ctx.db, request.params.studentId),
  );
};
