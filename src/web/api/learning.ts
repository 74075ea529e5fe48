import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuestionStatus } from '../../contract/learning';
import { call, calling } from './client';

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
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: learningKeys.notes(videoId) });
  return {
    add: useMutation({
      mutationFn: (body: { t: number; text: string }) =>
        call('POST /api/videos/:videoId/notes', { params: { videoId }, body }),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: ({ noteId, ...body }: { noteId: string; text?: string; t?: number }) =>
        call('PATCH /api/notes/:noteId', { params: { noteId }, body }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (noteId: string) => call('DELETE /api/notes/:noteId', { params: { noteId } }),
      onSuccess: refresh,
    }),
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

/** Asking, "me too", reading and accepting answers on a video's questions. */
export function useQuestionActions(videoId: string) {
  const client = useQueryClient();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: learningKeys.questions(videoId) });
    void client.invalidateQueries({ queryKey: learningKeys.unread });
  };
  return {
    ask: useMutation({
      mutationFn: (body: { t: number; title: string; text: string }) =>
        call('POST /api/videos/:videoId/questions', { params: { videoId }, body }),
      onSuccess: refresh,
    }),
    meToo: useMutation({
      mutationFn: (questionId: string) =>
        call('POST /api/questions/:questionId/me-too', { params: { questionId } }),
      onSuccess: refresh,
    }),
    seen: useMutation({
      mutationFn: (questionId: string) =>
        call('POST /api/questions/:questionId/seen', { params: { questionId } }),
      onSuccess: refresh,
    }),
    accept: useMutation({
      mutationFn: ({ questionId, answerId }: { questionId: string; answerId: string }) =>
        call('POST /api/questions/:questionId/accept', { params: { questionId }, body: { answerId } }),
      onSuccess: refresh,
    }),
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
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['learning'] });
  return {
    answer: useMutation({
      mutationFn: ({ questionId, text }: { questionId: string; text: string }) =>
        call('POST /api/questions/:questionId/answers', { params: { questionId }, body: { text } }),
      onSuccess: refresh,
    }),
    accept: useMutation({
      mutationFn: ({ questionId, answerId }: { questionId: string; answerId: string }) =>
        call('POST /api/questions/:questionId/accept', { params: { questionId }, body: { answerId } }),
      onSuccess: refresh,
    }),
    status: useMutation({
      mutationFn: ({ questionId, status }: { questionId: string; status: QuestionStatus }) =>
        call('POST /api/admin/questions/:questionId/status', { params: { questionId }, body: { status } }),
      onSuccess: refresh,
    }),
  };
}

/** GET /api/admin/videos/:videoId/learning: what deleting the video takes with it. */
export function fetchVideoLearningCounts(videoId: string) {
  return call('GET /api/admin/videos/:videoId/learning', { params: { videoId } });
}
