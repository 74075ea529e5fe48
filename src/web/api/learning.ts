import { useQuery } from '@tanstack/react-query';
import type { QuestionStatus } from '../../contract/learning';
import { call, calling } from './client';
import { useRefreshing } from './refreshing';

/** Query keys of notes and questions. */
export const learningKeys = {
  notes: (videoId: string) => ['learning', 'notes', videoId] as const,
  courseNotes: (courseId: string) => ['learning', 'course-notes', courseId] as const,
  questions: (videoId: string) => ['learning', 'questions', videoId] as const,
  unread: ['learning', 'unread'] as const,
  queue: (status: string) => ['learning', 'queue', status] as const,
};

/** GET /api/videos/:videoId/notes: the student's own notes of the video, by time. */
export function useNotes(videoId: string) {
  return useQuery({
    queryKey: learningKeys.notes(videoId),
    queryFn: calling('GET /api/videos/:videoId/notes', { params: { videoId } }, (r) => r.notes),
    retry: false,
  });
}

/** Adding, editing and deleting notes; each refreshes the video's list. */
export function useNoteActions(videoId: string) {
  const list = [learningKeys.notes(videoId)];
  return {
    add: useRefreshing(list, (body: { t: number; text: string }) =>
      call('POST /api/videos/:videoId/notes', { params: { videoId }, body }),
    ),
    edit: useRefreshing(list, ({ noteId, ...body }: { noteId: string; text?: string; t?: number }) =>
      call('PATCH /api/notes/:noteId', { params: { noteId }, body }),
    ),
    remove: useRefreshing(list, (noteId: string) =>
      call('DELETE /api/notes/:noteId', { params: { noteId } }),
    ),
  };
}

/** GET /api/courses/:courseId/notes: the student's notes of every lecture of a course. */
export function useCourseNotes(courseId: string) {
  return useQuery({
    queryKey: learningKeys.courseNotes(courseId),
    queryFn: calling('GET /api/courses/:courseId/notes', { params: { courseId } }),
    retry: false,
  });
}

/** The Markdown export's URL (a download the browser saves). */
export const notesExportUrl = (courseId: string) =>
  `/api/courses/${encodeURIComponent(courseId)}/notes?format=md`;

/** GET /api/videos/:videoId/questions: the video's questions, by moment. */
export function useQuestions(videoId: string) {
  return useQuery({
    queryKey: learningKeys.questions(videoId),
    queryFn: calling('GET /api/videos/:videoId/questions', { params: { videoId } }, (r) => r.questions),
    retry: false,
  });
}

/** GET /api/questions/unread: answers to the student's questions not read yet. */
export function useUnreadAnswers() {
  return useQuery({
    queryKey: learningKeys.unread,
    queryFn: calling('GET /api/questions/unread', {}, (r) => r.unread),
    retry: false,
    refetchInterval: 60_000,
  });
}

/** Accepting an answer, the asker's or staff's: the same call for both. */
const acceptAnswer = ({ questionId, answerId }: { questionId: string; answerId: string }) =>
  call('POST /api/questions/:questionId/accept', { params: { questionId }, body: { answerId } });

/** Asking, "me too", reading and accepting answers on a video's questions. */
export function useQuestionActions(videoId: string) {
  const lists = [learningKeys.questions(videoId), learningKeys.unread];
  return {
    ask: useRefreshing(lists, (body: { t: number; title: string; text: string }) =>
      call('POST /api/videos/:videoId/questions', { params: { videoId }, body }),
    ),
    meToo: useRefreshing(lists, (questionId: string) =>
      call('POST /api/questions/:questionId/me-too', { params: { questionId } }),
    ),
    seen: useRefreshing(lists, (questionId: string) =>
      call('POST /api/questions/:questionId/seen', { params: { questionId } }),
    ),
    accept: useRefreshing(lists, acceptAnswer),
  };
}

/** How often the staff queue asks again: questions of a live class arrive while staff watch it. */
export const QUESTION_QUEUE_POLL_MS = 10_000;

/** GET /api/admin/questions: the staff queue, asked again every 10 s while it is on screen. */
export function useQuestionQueue(status: QuestionStatus | 'all') {
  return useQuery({
    queryKey: learningKeys.queue(status),
    queryFn: calling('GET /api/admin/questions', { query: { status } }, (r) => r.questions),
    refetchInterval: QUESTION_QUEUE_POLL_MS,
  });
}

/** Staff actions on a question: answer, accept an answer, open, close or hide. */
export function useStaffActions() {
  const all = [['learning']];
  return {
    answer: useRefreshing(all, ({ questionId, text }: { questionId: string; text: string }) =>
      call('POST /api/questions/:questionId/answers', { params: { questionId }, body: { text } }),
    ),
    accept: useRefreshing(all, acceptAnswer),
    status: useRefreshing(all, ({ questionId, status }: { questionId: string; status: QuestionStatus }) =>
      call('POST /api/admin/questions/:questionId/status', { params: { questionId }, body: { status } }),
    ),
  };
}

/** GET /api/admin/videos/:videoId/learning: what deleting the video takes with it. */
export function fetchVideoLearningCounts(videoId: string) {
  return call('GET /api/admin/videos/:videoId/learning', { params: { videoId } });
}
