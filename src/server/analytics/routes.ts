import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { COURSE_CSV_HEADER, courseAnalytics, courseCsv } from './course-grid';
import { csvFileName, csvStream, type CsvValue } from './csv';
import { STUDENT_CSV_HEADER, studentAnalytics, studentCsvRows } from './student-activity';
import { videoAnalytics, videoCsvHeader, videoCsvRows } from './video-retention';

/** Sends a CSV download, streamed. */
function sendCsv(
  reply: FastifyReply,
  name: string,
  header: readonly string[],
  rows: AsyncIterable<readonly CsvValue[]>,
) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(csvStream(header, rows));
}

/** Learning analytics (base /api/admin/analytics): admins, instructors of their courses' videos and courses; `?format=csv` downloads the same answer. */
export const analyticsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    // The video and course are checked by the routes' scope before the handler.
    'GET /api/admin/analytics/videos/:videoId': async ({ params, query, reply }) => {
      const analytics = await videoAnalytics(ctx.db, params.videoId, ctx.clock.now());
      if (query.format === 'json') return analytics;
      const name = csvFileName('video', analytics.video.title, 'retention');
      return sendCsv(reply, name, videoCsvHeader(analytics), videoCsvRows(analytics));
    },

    'GET /api/admin/analytics/courses/:courseId': async ({ params, query, reply }) => {
      const now = ctx.clock.now();
      if (query.format === 'json') return courseAnalytics(ctx.db, params.courseId, query, now);
      const { course, rows } = await courseCsv(ctx.db, params.courseId, query, now);
      const name = csvFileName('course', course.coursecode, `batch${course.batch}`, query.filter);
      return sendCsv(reply, name, COURSE_CSV_HEADER, rows);
    },

    'GET /api/admin/analytics/students/:studentId': async ({ params, query, reply }) => {
      const analytics = await studentAnalytics(
        ctx.db,
        params.studentId,
        ctx.clock.now(),
        ctx.config.openTimeZone,
      );
      if (query.format === 'json') return analytics;
      const name = csvFileName('student', analytics.student.rollno, 'activity');
      return sendCsv(reply, name, STUDENT_CSV_HEADER, studentCsvRows(analytics));
    },
  });
};
