import type { FastifyPluginAsync } from 'fastify';
import { adminToasts } from '../../contract/messages';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { courseAccessListJson } from './access-list';
import { grantCourseAccess, revokeCourseAccess } from './course-access';
import { encodeJson, sendEncoded } from '../http/encoded-body';
import { courseScope, withinScope } from '../http/staff-scope';
import type { Authenticated } from '../http/session';
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
export const courseAdminRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
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

  /** An instructor's courses only (not cached: a few rows). */
  const taughtCourses = async (session: Authenticated) =>
    withinScope(session, await listAdminCourses(ctx.db), (course) => course._id);

  registerRoutes(app, auth, {
    'GET /api/admin/course/dashboard': async ({ session, request, reply }) =>
      courseScope(session)
        ? { courses: await taughtCourses(session) }
        : sendEncoded(request, reply, (await courseLists()).courses),
    'GET /api/admin/course/list': async ({ session, request, reply }) =>
      courseScope(session)
        ? { course: await taughtCourses(session) }
        : sendEncoded(request, reply, (await courseLists()).course),
    'GET /api/admin/video/courses': async ({ session, request, reply }) =>
      courseScope(session)
        ? { courses: await taughtCourses(session) }
        : sendEncoded(request, reply, (await courseLists()).courses),

    // 200, as the spec's other create call (POST /video/upload) and /course/update answer: a client
    // of the original checks for it.
    'POST /api/admin/course/create': async ({ body }) => ({
      message: adminToasts.courseCreated,
      course: await createCourse(ctx, body),
    }),

    'POST /api/admin/course/update': async ({ body }) => ({
      message: adminToasts.courseUpdated,
      course: await updateCourse(ctx, body),
    }),

    'GET /api/admin/course/accesslist': async ({ query: { courseId }, request, reply }) => {
      if (!courseId) return sendEncoded(request, reply, await fullAccessList());
      await requireCourse(ctx.db, courseId);
      const list = await courseAccessListJson(ctx.db, courseId);
      return reply.type('application/json; charset=utf-8').send(`{"courseAccessList":${list}}`);
    },

    'POST /api/admin/course/grantaccess': async ({ session, body }) => {
      const expiry = body.accessexpiration;
      const [outcome] = await grantCourseAccess(
        ctx.db,
        session.user.id,
        {
          courseId: body.courseId,
          studentIds: [body.studentId],
          days: typeof expiry === 'number' ? expiry : body.days,
          expiresAt: typeof expiry === 'string' ? new Date(expiry) : undefined,
        },
        ctx.clock.now(),
        ctx.config.openTimeZone,
      );
      return { message: adminToasts.courseAccessGranted, access: presentCourseAccess(outcome!.enrollment) };
    },

    'POST /api/admin/course/revokeaccess': async ({ session, body }) => {
      const enrollment = await revokeCourseAccess(
        ctx.db,
        session.user.id,
        { courseId: body.courseId, studentId: body.studentId, reason: body.accessrevokedreason },
        ctx.clock.now(),
      );
      return { message: adminToasts.courseAccessRevoked, access: presentCourseAccess(enrollment) };
    },

    'POST /api/admin/students/dropdown': async ({ body }) => ({
      students: await enrolledStudents(ctx.db, body.courseid),
    }),
  });
};
