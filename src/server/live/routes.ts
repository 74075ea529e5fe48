import type { FastifyPluginAsync } from 'fastify';
import { LIVE_CALENDAR_TYPE, liveMessages } from '../../contract/live';
import { mediaMessages } from '../../contract/media';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { requireOpenTo } from '../http/opening-gate';
import { courseScope } from '../http/staff-scope';
import { courseAccessOf } from '../videos/access';
import { isUuid } from '../db/ids';
import { forbidden, notFound } from '../errors';
import type { SessionUser } from '../accounts/sessions';
import { classCalendar } from './calendar';
import {
  courseLiveClasses,
  createLiveClass,
  deleteLiveClass,
  listLiveClasses,
  requireLiveClass,
  rotateStreamKey,
  updateLiveClass,
} from './classes';
import { presentAdminClass, presentStudentClass, type LiveClassRow } from './presenter';
import { presentRecording, recordingJobsOf } from './recording-progress';
import { queueCancellation } from './reminders';

/**
 * Live classes (docs/LIVE.md). Staff routes: the route table's `scope` (the course, or the class's
 * course) is checked before the handler, so an instructor reaches only their courses' classes.
 * Students: opening hours, then their access to the course by the one rule; a class of a course
 * they cannot open is a 403.
 */
export const liveRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  /** Classes as staff see them, with their recordings' jobs read in one query. */
  async function presentAll(rows: LiveClassRow[]) {
    const jobs = await recordingJobsOf(ctx.db, rows);
    return rows.map((row) =>
      presentAdminClass(ctx.config.live, ctx.signingKey, row, presentRecording(row, jobs)),
    );
  }
  const present = async (row: LiveClassRow) => (await presentAll([row]))[0]!;

  /** Students: the course must be open to them (enrolled, not expired or revoked); staff: theirs. */
  async function requireCourseView(
    user: SessionUser,
    teaches: readonly string[] | undefined,
    courseId: string,
  ) {
    requireOpenTo(user, ctx.clock.now(), ctx.config);
    if (user.role === 'student') {
      const verdict = await courseAccessOf(
        ctx.db,
        user.id,
        courseId,
        ctx.clock.now(),
        ctx.config.openTimeZone,
      );
      if (!verdict.canWatch) throw forbidden(mediaMessages.noCourseAccess);
      return;
    }
    if (user.role === 'instructor' && !(teaches ?? []).includes(courseId))
      throw forbidden(liveMessages.noCourseAccess);
  }

  registerRoutes(app, auth, {
    // The route table's scope checked the course (or the class's course) before these run.
    'POST /api/admin/live-classes': async ({ session, body }) =>
      present(await createLiveClass(ctx, session.user.id, body)),
    'GET /api/admin/live-classes': async ({ session }) => ({
      classes: await presentAll(await listLiveClasses(ctx.db, courseScope(session))),
    }),
    'PATCH /api/admin/live-classes/:classId': async ({ params, body }) => {
      const row = await requireLiveClass(ctx.db, params.classId);
      return present(await updateLiveClass(ctx, row, body));
    },
    'DELETE /api/admin/live-classes/:classId': async ({ session, params }) => {
      const row = await requireLiveClass(ctx.db, params.classId);
      await deleteLiveClass(ctx, session.user.id, row);
      // Students whose calendar holds it get its CANCEL (live/reminders.ts).
      await queueCancellation(ctx, row);
      return { message: liveMessages.deleted };
    },
    'POST /api/admin/live-classes/:classId/key': async ({ params }) => {
      const row = await requireLiveClass(ctx.db, params.classId);
      return present(await rotateStreamKey(ctx, row));
    },
    'GET /api/courses/:courseId/live-classes': async ({ session, params }) => {
      if (!isUuid(params.courseId)) throw notFound(liveMessages.courseNotFound);
      await requireCourseView(session.user, session.teaches, params.courseId);
      return (await courseLiveClasses(ctx.db, params.courseId)).map(presentStudentClass);
    },
    'GET /api/live-classes/:classId/calendar.ics': async ({ session, params, reply }) => {
      const row = await requireLiveClass(ctx.db, params.classId);
      await requireCourseView(session.user, session.teaches, row.courseId);
      const base = new URL(ctx.config.publicUrl);
      const body = classCalendar({
        row,
        url: new URL(`/course/${row.courseId}?video=${row.videoId}`, base).href,
        productName: ctx.config.productName,
        host: base.hostname,
      });
      return reply
        .type(`${LIVE_CALENDAR_TYPE}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="class-${row.id}.ics"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  });
};
