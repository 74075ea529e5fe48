import type { FastifyPluginAsync } from 'fastify';
import { adminToasts } from '../../contract/messages';
import {
  DeleteVideoBody,
  StudentsAccessBody,
  VideoAccessBody,
  VideoUpdateBody,
  VideoUploadBody,
  type AdminVideo,
  type DropdownStudent,
} from '../../contract/videos';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { parseInput } from '../errors';
import { grantVideoAccess, revokeVideoAccess, studentsByVideoAccess } from './admin-access';
import { deleteVideo, listAdminVideos, saveUploadedVideo, updateVideo } from './admin-service';

/** Video metadata, per-student video access and deletion for admins (base /api/admin, SPEC.md section 7). */
export const videoAdminRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  app.addHook('onRequest', async (request) => {
    await auth.requireAdmin(request);
  });

  app.get('/video/editlist', async (): Promise<{ videos: AdminVideo[] }> => {
    return { videos: await listAdminVideos(ctx.db) };
  });

  app.get('/getvideolist', async (): Promise<{ videos: AdminVideo[] }> => {
    return { videos: await listAdminVideos(ctx.db) };
  });

  app.post(
    '/students/access',
    async (
      request,
    ): Promise<{ studentsWithAccess: DropdownStudent[]; studentsWithoutAccess: DropdownStudent[] }> => {
      const body = parseInput(StudentsAccessBody, request.body);
      return studentsByVideoAccess(ctx.db, body.videoId, body.courseId);
    },
  );

  app.post('/video/upload', async (request): Promise<{ message: string; video: AdminVideo }> => {
    const admin = await auth.requireAdmin(request);
    const body = parseInput(VideoUploadBody, request.body);
    const video = await saveUploadedVideo(ctx, admin.user.id, body);
    return { message: adminToasts.videoUploaded, video };
  });

  app.post('/video/grant', async (request): Promise<{ message: string; granted: number }> => {
    const admin = await auth.requireAdmin(request);
    const body = parseInput(VideoAccessBody, request.body);
    const granted = await grantVideoAccess(
      ctx.db,
      admin.user.id,
      body.videoId,
      body.studentIds,
      ctx.clock.now(),
    );
    return { message: adminToasts.accessGranted, granted };
  });

  app.post('/video/revoke', async (request): Promise<{ message: string; revoked: number }> => {
    const admin = await auth.requireAdmin(request);
    const body = parseInput(VideoAccessBody, request.body);
    const revoked = await revokeVideoAccess(
      ctx.db,
      admin.user.id,
      body.videoId,
      body.studentIds,
      ctx.clock.now(),
    );
    return { message: adminToasts.accessRevoked, revoked };
  });

  app.post('/delete/video', async (request): Promise<{ message: string }> => {
    const admin = await auth.requireAdmin(request);
    const body = parseInput(DeleteVideoBody, request.body);
    await deleteVideo(ctx.db, admin.user.id, body.videoId, ctx.clock.now());
    return { message: adminToasts.videoDeleted };
  });

  app.post('/video/update', async (request): Promise<{ message: string; video: AdminVideo }> => {
    const body = parseInput(VideoUpdateBody, request.body);
    const video = await updateVideo(ctx, body);
    return { message: adminToasts.videoUpdated, video };
  });
};
