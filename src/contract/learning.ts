import { z } from 'zod';
import { boundedText, Moment, momentMessages } from './fields';

/**
 * Notes and questions at a moment of a lecture (issue 30): a student's private notes, and doubts
 * pinned to the second that classmates with access to the video see and staff answer.
 */

export const QUESTION_TITLE_MAX_CHARS = 200;
/** One limit for every text written here: a note, a question's text, an answer (README, "Limits"). */
export const TEXT_MAX_CHARS = 5_000;
/** Per student and rolling hour (fixed window): more are answered 429. */
export const NOTES_PER_HOUR = 200;
export const QUESTIONS_PER_HOUR = 20;

export const learningMessages = {
  ...momentMessages,
  noteText: `A note needs text (at most ${TEXT_MAX_CHARS} characters).`,
  titleInvalid: `A question needs a title (at most ${QUESTION_TITLE_MAX_CHARS} characters).`,
  questionText: `The question's text is at most ${TEXT_MAX_CHARS} characters.`,
  answerText: `An answer needs text (at most ${TEXT_MAX_CHARS} characters).`,
  noteNotFound: 'Note not found.',
  questionNotFound: 'Question not found.',
  answerNotFound: 'That answer is not one of this question.',
  tooManyNotes: `You can add at most ${NOTES_PER_HOUR} notes an hour. Please wait a little.`,
  tooManyQuestions: `You can ask at most ${QUESTIONS_PER_HOUR} questions an hour. Please wait a little.`,
  notYours: 'Only the student who asked, or staff, can accept an answer.',
  closed: 'This question is closed.',
  noteSaved: 'Note saved.',
  noteDeleted: 'Note deleted.',
  asked: 'Question posted.',
  meToo: 'Marked: you have this doubt too.',
  answered: 'Answer posted.',
  accepted: 'Answer accepted.',
  statusChanged: 'Question updated.',
  seen: 'Answers marked as read.',
  noFrame: 'This question has no frame.',
  courseNotFound: 'Course not found.',
  loadFailed: 'Could not load.',
  saveFailed: 'Could not save.',
} as const;

export const NoteBody = z.object({ t: Moment, text: boundedText(TEXT_MAX_CHARS, learningMessages.noteText) });
export const NotePatchBody = z.object({
  t: Moment.optional(),
  text: boundedText(TEXT_MAX_CHARS, learningMessages.noteText).optional(),
});
export const QuestionBody = z.object({
  t: Moment,
  title: boundedText(QUESTION_TITLE_MAX_CHARS, learningMessages.titleInvalid),
  text: boundedText(TEXT_MAX_CHARS, learningMessages.questionText, 0).default(''),
});
export const AnswerBody = z.object({ text: boundedText(TEXT_MAX_CHARS, learningMessages.answerText) });
export const AcceptBody = z.object({ answerId: z.string({ error: learningMessages.answerNotFound }) });
export const QuestionStatus = z.enum(['open', 'closed', 'hidden']);
export type QuestionStatus = z.infer<typeof QuestionStatus>;
export const QuestionStatusBody = z.object({
  status: z.enum(QuestionStatus.options, { error: 'status must be open, closed or hidden.' }),
});

export const NoteIdParam = z.object({ noteId: z.string() });
export const QuestionIdParam = z.object({ questionId: z.string() });
export const NotesExportQuery = z.object({ format: z.enum(['json', 'md']).optional().catch(undefined) });
export const QueueQuery = z.object({
  status: z
    .enum([...QuestionStatus.options, 'all'])
    .optional()
    .catch(undefined),
});

/** What a note and a question both are: something of the viewer's at a moment of a video. */
const atMoment = { _id: z.string(), videoId: z.string(), t: z.number() };

export const Note = z.strictObject({
  ...atMoment,
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Note = z.infer<typeof Note>;

export const NoteListResponse = z.strictObject({ notes: z.array(Note) });
export const NoteSavedResponse = z.strictObject({ message: z.string(), note: Note });

/** A course's notes, by lecture (in course order) and time. */
export const CourseNotesResponse = z.strictObject({
  course: z.strictObject({ _id: z.string(), name: z.string() }),
  videos: z.array(
    z.strictObject({ _id: z.string(), title: z.string(), position: z.number().int(), notes: z.array(Note) }),
  ),
});
export type CourseNotesResponse = z.infer<typeof CourseNotesResponse>;
export const NOTES_DOWNLOADS = ['text/markdown'] as const;

/** Answers name no one: a classmate sees that staff answered, not who. */
export const Answer = z.strictObject({
  _id: z.string(),
  text: z.string(),
  byStaff: z.boolean(),
  accepted: z.boolean(),
  createdAt: z.string(),
});
export type Answer = z.infer<typeof Answer>;

/** A question as a viewer of the video sees it: no asker's name, only whether it is the viewer's own. */
export const Question = z.strictObject({
  ...atMoment,
  title: z.string(),
  text: z.string(),
  status: QuestionStatus,
  mine: z.boolean(),
  meToo: z.number().int(),
  meTooMine: z.boolean(),
  /** Answers the asker has not seen yet (0 for anyone else). */
  unread: z.number().int(),
  answers: z.array(Answer),
  /**
   * The small frame of the moment the server took from the video (never a student's screen), once
   * it has: read with the same access as the video. Null until then, or when there is none.
   */
  frameUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type Question = z.infer<typeof Question>;

/** Where a question's frame is read. */
export const questionFrameUrl = (questionId: string) =>
  `/api/questions/${encodeURIComponent(questionId)}/frame.jpg`;
export const QUESTION_FRAME_FILES = ['image/jpeg'] as const;

export const QuestionListResponse = z.strictObject({ questions: z.array(Question) });
export const QuestionSavedResponse = z.strictObject({ message: z.string(), question: Question });
export const MeTooResponse = z.strictObject({ message: z.string(), meToo: z.number().int() });
export const UnreadResponse = z.strictObject({ unread: z.number().int() });

/** A question in the staff queue: where it was asked (the asker stays unnamed here too). */
export const QueueQuestion = Question.omit({ mine: true, meTooMine: true, unread: true }).extend({
  videoTitle: z.string(),
  courseId: z.string().nullable(),
  courseName: z.string().nullable(),
});
export type QueueQuestion = z.infer<typeof QueueQuestion>;
export const QueueResponse = z.strictObject({ questions: z.array(QueueQuestion) });

/** What deleting a video takes with it (the confirmation dialog says it). */
export const VideoLearningCounts = z.strictObject({ notes: z.number().int(), questions: z.number().int() });

/** Seconds as m:ss or h:mm:ss. */
export function formatMoment(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * The tiny markup of notes, questions and answers: plain text, where a fenced block (```) is code
 * and `backticks` are inline code. Nothing else is markup: HTML, links and the rest stay text.
 */
export type MarkupBlock =
  { kind: 'code'; text: string } | { kind: 'text'; parts: { code: boolean; text: string }[] };

export function parseMarkup(source: string): MarkupBlock[] {
  const blocks: MarkupBlock[] = [];
  const chunks = source.replace(/\r\n?/g, '\n').split(/^```[^\n]*$/m);
  chunks.forEach((chunk, i) => {
    // Odd chunks sit between fences (an unclosed fence runs to the end).
    if (i % 2 === 1) {
      const code = chunk.replace(/^\n/, '').replace(/\n$/, '');
      blocks.push({ kind: 'code', text: code });
      return;
    }
    const trimmed = chunk.replace(/^\n+/, '').replace(/\n+$/, '');
    if (!trimmed) return;
    const parts = trimmed
      .split(/(`[^`\n]+`)/)
      .filter(Boolean)
      .map((piece) =>
        /^`[^`\n]+`$/.test(piece) ? { code: true, text: piece.slice(1, -1) } : { code: false, text: piece },
      );
    blocks.push({ kind: 'text', parts });
  });
  return blocks;
}
