import type { FastifyPluginAsync } from 'fastify';
import { learningMessages, NOTES_PER_HOUR, QUESTIONS_PER_HOUR } from '../../contract/learning';
import type { AccountRouteOptions } from '../accounts/student-routes';
import type { AppContext } from '../context';
import { forbidden, notFound, tooManyRequests } from '../errors';
import { registerRoutes } from '../http/route-table';
import { courseScope } from '../http/staff-scope';
import { requireOpenTo } from '../http/opening-gate';
import { enqueueJob } from '../jobs/queue';
import { mediaKeys } from '../storage';
import { requireCourse, requireWatch, requireWatchedVideo, checkMoment, type Viewer } from './access';
import { FRAME_ATTEMPTS } from './job-types';
import { answeredMail } from './mails';
import { notesFileName, notesMarkdown } from './notes-markdown';
import { addNote, courseNotes, deleteNote, listNotes, ownNote, updateNote } from './notes';
import {
  acceptAnswer,
  answerQuestion,
  askerOf,
  askQuestion,
  listQuestions,
  markSeen,
  meToo,
  queue,
  questionById,
  setStatus,
  unreadCount,
  videoLearningCounts,
} from './questions';

const HOUR_MS = 3_600_000;

/**
 * Counts the request first, then refuses past the limit: a burst of parallel requests cannot all
 * slip in before the count catches up.
 */
async function limit(ctx: AppContext, key: string, max: number, message: string) {
  const hit = await ctx.rateCounter.hit(key, HOUR_MS);
  if (hit.count > max) throw tooManyRequests(message, Math.ceil(hit.resetInMs / 1000));
}

/**
 * Notes and questions at a moment of a lecture (issue 30). Outside the student API's gate, like
 * captions: each handler closes itself to students outside opening hours (access.ts), and a
 * student's access is the video's own rule, checked on every request.
 */
export const learningRoutes: FastifyPluginAsync<AccountRouteOptions & { wakeJobs?: () => void }> = async (
  app,
  { ctx, auth, wakeJobs },
) => {
  const now = () => ctx.clock.now();

  /** The question, after checking the reader may watch its video now. */
  async function readableQuestion(user: Viewer, questionId: string) {
    const question = await questionById(ctx.db, questionId, user);
    await requireWatch(ctx, user, question.videoId);
    return question;
  }

  /** The student's note, after checking they may still watch its video. */
  async function ownWatchedNote(user: Viewer, noteId: string) {
    const note = await ownNote(ctx.db, user.id, noteId);
    const duration = await requireWatch(ctx, user, note.videoId);
    return { note, duration };
  }

  registerRoutes(app, auth, {
    'GET /api/videos/:videoId/notes': async ({ session, params }) => {
      await requireWatch(ctx, session.user, params.videoId);
      return { notes: await listNotes(ctx.db, session.user.id, params.videoId) };
    },
    'POST /api/videos/:videoId/notes': async ({ session, params, body }) => {
      const duration = await requireWatch(ctx, session.user, params.videoId);
      checkMoment(body.t, duration);
      await limit(ctx, `notes:${session.user.id}`, NOTES_PER_HOUR, learningMessages.tooManyNotes);
      const note = await addNote(ctx.db, session.user.id, params.videoId, body, now());
      return { message: learningMessages.noteSaved, note };
    },
    'PATCH /api/notes/:noteId': async ({ session, params, body }) => {
      const { note, duration } = await ownWatchedNote(session.user, params.noteId);
      if (body.t !== undefined) checkMoment(body.t, duration);
      const saved = await updateNote(ctx.db, note.id, body, now());
      return { message: learningMessages.noteSaved, note: saved };
    },
    'DELETE /api/notes/:noteId': async ({ session, params }) => {
      const { note } = await ownWatchedNote(session.user, params.noteId);
      await deleteNote(ctx.db, note.id);
      return { message: learningMessages.noteDeleted };
    },
    'GET /api/courses/:courseId/notes': async ({ session, params, query, reply }) => {
      await requireCourse(ctx, session.user, params.courseId);
      const all = await courseNotes(ctx.db, session.user.id, params.courseId);
      if (query.format !== 'md') return all;
      return reply
        .header('content-type', 'text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="${notesFileName(all.course.name)}"`)
        .header('cache-control', 'no-store')
        .send(notesMarkdown(all));
    },

    'GET /api/videos/:videoId/questions': async ({ session, params }) => {
      await requireWatch(ctx, session.user, params.videoId);
      return { questions: await listQuestions(ctx.db, params.videoId, session.user) };
    },
    'POST /api/videos/:videoId/questions': async ({ session, params, body }) => {
      const duration = await requireWatch(ctx, session.user, params.videoId);
      checkMoment(body.t, duration);
      await limit(ctx, `questions:${session.user.id}`, QUESTIONS_PER_HOUR, learningMessages.tooManyQuestions);
      const question = await askQuestion(ctx.db, session.user, params.videoId, body, now());
      ctx.metrics.questionsAsked.inc();
      // The frame of the moment comes from the video on the server, in the background (frames.ts).
      await enqueueJob(
        ctx.db,
        'learning.frame',
        { questionId: question._id },
        { maxAttempts: FRAME_ATTEMPTS },
      );
      wakeJobs?.();
      return { message: learningMessages.asked, question };
    },
    'GET /api/questions/unread': async ({ session }) => {
      requireOpenTo(session.user, now(), ctx.config);
      return { unread: await unreadCount(ctx.db, session.user.id, now()) };
    },
    'POST /api/questions/:questionId/me-too': async ({ session, params }) => {
      const question = await readableQuestion(session.user, params.questionId);
      return { message: learningMessages.meToo, meToo: await meToo(ctx.db, question, session.user, now()) };
    },
    'POST /api/questions/:questionId/seen': async ({ session, params }) => {
      const question = await readableQuestion(session.user, params.questionId);
      if (question.askerId !== session.user.id) throw notFound(learningMessages.questionNotFound);
      await markSeen(ctx.db, question, now());
      return { message: learningMessages.seen };
    },
    // The staff routes' question or video is checked by their scope before the handler.
    'POST /api/questions/:questionId/answers': async ({ session, params, body }) => {
      const question = await questionById(ctx.db, params.questionId, session.user);
      const answered = await answerQuestion(ctx.db, question, session.user, body.text, now());
      ctx.metrics.questionAnswers.inc();
      // The asker is mailed while they may watch the video; a mail that cannot be handed over does not undo the answer.
      const asker = await askerOf(ctx.db, question, now());
      if (asker) {
        ctx.mailer
          .send(answeredMail(ctx.config.productName, asker, question))
          .catch((error: unknown) =>
            ctx.logger.warn({ err: error, questionId: question.id }, 'answer mail failed'),
          );
      }
      return { message: learningMessages.answered, question: answered };
    },
    // The frame of the question's moment, read with the video's own access (like its poster).
    'GET /api/questions/:questionId/frame.jpg': async ({ session, params, reply }) => {
      const question = await questionById(ctx.db, params.questionId, session.user);
      const video = await requireWatchedVideo(ctx, session.user, question.videoId);
      if (!question.frameAt) throw notFound(learningMessages.noFrame);
      const store = ctx.media.of(video.store);
      const read = await store.read(mediaKeys.questionFrame(question.videoId, question.id));
      if (!read?.body) throw notFound(learningMessages.noFrame);
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', read.size)
        .header('cache-control', 'private, max-age=3600')
        .send(read.body);
    },
    'POST /api/questions/:questionId/accept': async ({ session, params, body }) => {
      const question = await readableQuestion(session.user, params.questionId);
      if (session.user.role === 'student' && question.askerId !== session.user.id)
        throw forbidden(learningMessages.notYours);
      const accepted = await acceptAnswer(ctx.db, question, body.answerId, session.user);
      return { message: learningMessages.accepted, question: accepted };
    },
    'GET /api/admin/questions': async ({ session, query }) => ({
      questions: await queue(ctx.db, query.status ?? 'open', session.user, courseScope(session)),
    }),
    'POST /api/admin/questions/:questionId/status': async ({ session, params, body }) => {
      const question = await questionById(ctx.db, params.questionId, session.user);
      return {
        message: learningMessages.statusChanged,
        question: await setStatus(ctx.db, question, body.status, session.user),
      };
    },
    'GET /api/admin/videos/:videoId/learning': ({ params }) => videoLearningCounts(ctx.db, params.videoId),
  });
};
