import type { FastifyPluginAsync } from 'fastify';
import { adminToasts } from '../../contract/messages';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { grantVideoAccess, revokeVideoAccess, studentsByVideoAccess } from './admin-access';
import { deleteVideo, listAdminVideos, saveUploadedVideo, updateVideo } from './admin-service';

/** Video metadata, per-student video access and deletion for admins (base /api/admin, SPEC.md section 7). */
export const videoAdminRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  const now = () => ctx.clock.now();
  registerRoutes(app, auth, {
    'GET /api/admin/video/editlist': async () => ({ videos: await listAdminVideos(ctx.db) }),
    'GET /api/admin/getvideolist': async () => ({ videos: await listAdminVideos(ctx.db) }),

    'POST /api/admin/students/access': ({ body }) =>
      studentsByVideoAccess(ctx.db, body.videoId, body.courseId),

    'POST /api/admin/video/upload': async ({ session, body }) => ({
      message: adminToasts.videoUploaded,
      video: await saveUploadedVideo(ctx, session.user.id, body),
    }),

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

    'POST /api/admin/video/update': async ({ session, body }) => ({
      message: adminToasts.videoUpdated,
      video: await updateVideo(ctx, session.user.id, body),
    }),
  });
};
