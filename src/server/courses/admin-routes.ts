import type { FastifyPluginAsync } from 'fastify';
import {
  AccessListQuery,
  CourseCreateBody,
  CourseUpdateBody,
  GrantCourseAccessBody,
  RevokeCourseAccessBody,
  StudentsDropdownBody,
  type AdminCourse,
  type CourseAccessResult,
} from '../../contract/courses';
import { adminToasts } from '../../contract/messages';
import type { DropdownStudent } from '../../contract/videos';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { parseInput } from '../errors';
import { courseAccessListJson } from './access-list';
import { grantCourseAccess, revokeCourseAccess } from './course-access';
import { encodeJson, sendEncoded } from './encoded-body';
import {
  createCourse,
  enrolledStudents,
  listAdminCourses,
  requireCourse,
  updateCourse,
} from './course-service';
import { presentCourseAccess } from './presenter';
import { ROSTERS, stampedCache, stampReader } from './stamped-cache';

/** Courses and course access for admins (base /api/admin, SPEC.md section 7). */
export const courseAdminRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  // Before the body is read: a signed-out or student request gets 401/403, never a parse or a 404.
  app.addHook('onRequest', async (request) => {
    await auth.requireAdmin(request);
  });

  // The overview and the full access list are read far more often than courses and enrollments
  // change: they are rebuilt (and compressed) only when the rosters' change stamp moves.
  const rosterStamp = stampReader(ctx.db, ROSTERS);
  const courseLists = stampedCache(rosterStamp, async () => {
    const json = JSON.stringify(await listAdminCourses(ctx.db));
    const [courses, course] = await Promise.all([
      encodeJson(`{"courses":${json}}`),
      encodeJson(`{"course":${json}}`),
    ]);
    return { courses, course };
  });
  const fullAccessList = stampedCache(rosterStamp, async () =>
    encodeJson(`{"courseAccessList":${await courseAccessListJson(ctx.db)}}`),
  );

  app.get('/course/dashboard', async (request, reply) =>
    sendEncoded(request, reply, (await courseLists()).courses),
  );
  app.get('/course/list', async (request, reply) =>
    sendEncoded(request, reply, (await courseLists()).course),
  );
  app.get('/video/courses', async (request, reply) =>
    sendEncoded(request, reply, (await courseLists()).courses),
  );

  app.post('/course/create', async (request, reply) => {
    const body = parseInput(CourseCreateBody, request.body);
    const course = await createCourse(ctx, body);
    return reply.status(201).send({ message: adminToasts.courseCreated, course });
  });

  app.post('/course/update', async (request): Promise<{ message: string; course: AdminCourse }> => {
    const body = parseInput(CourseUpdateBody, request.body);
    const course = await updateCourse(ctx, body);
    return { message: adminToasts.courseUpdated, course };
  });

  app.get('/course/accesslist', async (request, reply) => {
    const { courseId } = parseInput(AccessListQuery, request.query);
    if (!courseId) return sendEncoded(request, reply, await fullAccessList());
    await requireCourse(ctx.db, courseId);
    const list = await courseAccessListJson(ctx.db, courseId);
    return reply.type('application/json; charset=utf-8').send(`{"courseAccessList":${list}}`);
  });

  app.post(
    '/course/grantaccess',
    async (request): Promise<{ message: string; access: CourseAccessResult }> => {
      const admin = await auth.requireAdmin(request);
      const body = parseInput(GrantCourseAccessBody, request.body);
      const [outcome] = await grantCourseAccess(
        ctx.db,
        admin.user.id,
        {
          courseId: body.courseId,
          studentIds: [body.studentId],
          days: body.days,
          expiresAt: body.accessexpiration ? new Date(body.accessexpiration) : undefined,
        },
        ctx.clock.now(),
      );
      return { message: adminToasts.courseAccessGranted, access: presentCourseAccess(outcome!.enrollment) };
    },
  );

  app.post(
    '/course/revokeaccess',
    async (request): Promise<{ message: string; access: CourseAccessResult }> => {
      const admin = await auth.requireAdmin(request);
      const body = parseInput(RevokeCourseAccessBody, request.body);
      const enrollment = await revokeCourseAccess(
        ctx.db,
        admin.user.id,
        { courseId: body.courseId, studentId: body.studentId, reason: body.accessrevokedreason },
        ctx.clock.now(),
      );
      return { message: adminToasts.courseAccessRevoked, access: presentCourseAccess(enrollment) };
    },
  );

  app.post('/students/dropdown', async (request): Promise<{ students: DropdownStudent[] }> => {
    const { courseid } = parseInput(StudentsDropdownBody, request.body);
    return { students: await enrolledStudents(ctx.db, courseid) };
  });
};
