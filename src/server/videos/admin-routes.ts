import type { FastifyPluginAsync } from 'fastify';
import { adminToasts } from '../../contract/messages';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { courseScope, withinScope } from '../http/staff-scope';
import type { Authenticated } from '../http/session';
import { forbidden } from '../errors';
import { instructorMessages } from '../../contract/instructors';
import { grantVideoAccess, revokeVideoAccess, studentsByVideoAccess } from './admin-access';
import { deleteVideo, listAdminVideos, saveUploadedVideo, updateVideo } from './admin-service';

/** Video metadata, per-student video access and deletion for admins (base /api/admin, SPEC.md section 7). */
export const videoAdminRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  const now = () => ctx.clock.now();
  const videosOf = async (session: Authenticated) =>
    withinScope(session, await listAdminVideos(ctx.db), (video) => video.course?._id ?? null);
  registerRoutes(app, auth, {
    'GET /api/admin/video/editlist': async ({ session }) => ({ videos: await videosOf(session) }),
    'GET /api/admin/getvideolist': async ({ session }) => ({ videos: await videosOf(session) }),

    'POST /api/admin/students/access': ({ body }) =>
      studentsByVideoAccess(ctx.db, body.videoId, body.courseId),

    // An instructor names their own upload into one of their courses (the route's scope), granting
    // it to nobody (video access is the admins').
    'POST /api/admin/video/upload': async ({ session, body }) => {
      if (courseScope(session) && body.rollnos.length) throw forbidden(instructorMessages.noGrants);
      return {
        message: adminToasts.videoUploaded,
        video: await saveUploadedVideo(ctx, session.user, body),
      };
    },

    'POST /api/admin/video/grant': async ({ session, body }) => ({
      message: adminToasts.accessGranted,
      granted: await grantVideoAccess(ctx.db, { actorId: session.user.id, ...body, now: now() }),
    }),

    'POST /api/admin/video/revoke': async ({ session, body }) => ({
      message: adminToasts.accessRevoked,
      revoked: await revokeVideoAccess(ctx.db, { actorId: session.user.id, ...body, now: now() }),
    }),

    'POST /api/admin/delete/video': async ({ session, body }) => {
      await deleteVideo(ctx.db, session.user.id, body.videoId, now());
      return { message: adminToasts.videoDeleted };
    },

    // Moving it: only into another of their courses (the route's scope names `course` too).
    'POST /api/admin/video/update': async ({ session, body }) => ({
      message: adminToasts.videoUpdated,
      video: await updateVideo(ctx, session.user, body),
    }),
  });
};
