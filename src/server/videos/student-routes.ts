import type { FastifyPluginAsync } from 'fastify';
import { CourseIdBody, type RollnoResponse, type StudentVideosResponse } from '../../contract/media';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { parseInput } from '../errors';
import { studentCourseVideos, studentRollno } from './student-videos';

/** The course player's calls (base /api, SPEC.md section 7: POST /videos, POST /rollno). */
export const videoStudentRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  app.post('/videos', async (request): Promise<StudentVideosResponse> => {
    const { user } = await auth.requireStudent(request);
    const { courseId } = parseInput(CourseIdBody, request.body);
    return { videos: await studentCourseVideos(ctx.db, user.id, courseId, ctx.clock.now()) };
  });

  app.post('/rollno', async (request): Promise<RollnoResponse> => {
    const { user } = await auth.requireStudent(request);
    const { courseId } = parseInput(CourseIdBody, request.body);
    return { rollno: await studentRollno(ctx.db, user, courseId, ctx.clock.now()) };
  });
};
