import { z } from 'zod';
import { boundedText, Moment, momentMessages } from './fields';

/**
 * Checkpoints (issue 39): questions at a moment of a lecture that the server holds the lecture at.
 * Staff place them; a student sees the prompt and choices, never the answers, and the key route
 * refuses keys past the first required checkpoint they have not passed. Completion: a lecture is
 * complete when at least 90% of it was watched and every required checkpoint passed; a course when
 * every lecture is.
 */

export const CHECKPOINT_KINDS = ['single', 'multiple', 'output'] as const;
export type CheckpointKind = (typeof CHECKPOINT_KINDS)[number];
/**
 * A question's limits: its prompt's characters, its choices and each one's characters, and the
 * accepted outputs of an "output" question and each one's characters (a student's answer's too).
 */
const limits = {
  promptChars: 5_000,
  choices: 10,
  choiceChars: 500,
  accepted: 10,
  outputChars: 5_000,
} as const;
/** Checkpoints a lecture may hold. */
export const MAX_CHECKPOINTS_PER_VIDEO = 50;
/** Attempts per student a minute (fixed window): more are answered 429. */
export const ATTEMPTS_PER_MINUTE = 10;
/** A rewatch counts as done when the saved progress covers the part but for this many seconds. */
export const REWATCH_SLACK_SECONDS = 2;

export const checkpointMessages = {
  ...momentMessages,
  kindInvalid: 'kind must be single, multiple or output.',
  promptInvalid: `A checkpoint needs a prompt (at most ${limits.promptChars} characters).`,
  choicesInvalid: `A choice question needs 2 to ${limits.choices} choices, each with text (at most ${limits.choiceChars} characters).`,
  choicesUnexpected: 'An output question has no choices.',
  answersInvalid:
    'answers must name the right choices (their numbers from 0) or, for an output question, the accepted outputs.',
  singleOneAnswer: 'A single choice question has exactly one right choice.',
  outputAnswers: `An output question needs 1 to ${limits.accepted} accepted outputs (at most ${limits.outputChars} characters each).`,
  rewindInvalid: 'rewindTo must be a moment before the checkpoint.',
  requiredInvalid: 'required must be true or false.',
  tooManyCheckpoints: `A lecture holds at most ${MAX_CHECKPOINTS_PER_VIDEO} checkpoints.`,
  answerShape:
    'answer must be a choice number (single), a list of choice numbers (multiple) or text (output).',
  checkpointNotFound: 'Checkpoint not found.',
  courseNotFound: 'Course not found.',
  noLectures: 'This course has no lectures yet.',
  alreadyPassed: 'You already passed this checkpoint.',
  rewatchFirst: 'Watch the part again before you answer.',
  tooManyAttempts: `You can answer at most ${ATTEMPTS_PER_MINUTE} times a minute. Please wait a little.`,
  held: 'Answer the checkpoint before you watch further.',
  created: 'Checkpoint added.',
  saved: 'Checkpoint saved.',
  deleted: 'Checkpoint deleted.',
  correct: 'Right. The lecture goes on.',
  wrong: 'Not quite. Try again.',
  wrongRewatch: 'Not quite. Watch that part again, then try once more.',
} as const;

const Prompt = boundedText(limits.promptChars, checkpointMessages.promptInvalid);
const Choices = z
  .array(boundedText(limits.choiceChars, checkpointMessages.choicesInvalid), {
    error: checkpointMessages.choicesInvalid,
  })
  .max(limits.choices, checkpointMessages.choicesInvalid);
/** Choice numbers (single, multiple) or accepted outputs (output). */
const Answers = z
  .array(
    z.union([z.number().int().min(0).max(limits.choices), z.string().max(limits.outputChars)], {
      error: checkpointMessages.answersInvalid,
    }),
    { error: checkpointMessages.answersInvalid },
  )
  .min(1, checkpointMessages.answersInvalid)
  .max(limits.accepted, checkpointMessages.answersInvalid);

const CheckpointFields = z.object({
  t: Moment,
  kind: z.enum(CHECKPOINT_KINDS, { error: checkpointMessages.kindInvalid }),
  prompt: Prompt,
  choices: Choices.optional(),
  answers: Answers,
  required: z.boolean({ error: checkpointMessages.requiredInvalid }).default(true),
  rewindTo: Moment.nullable().optional(),
});
type CheckpointFields = z.output<typeof CheckpointFields>;

/** The shape rules that tie kind, choices and answers together (the video's length is the server's). */
export function checkpointProblem(c: Omit<CheckpointFields, 'required'>): string | undefined {
  const choices = c.choices ?? [];
  if (c.kind === 'output') {
    if (choices.length) return checkpointMessages.choicesUnexpected;
    if (!c.answers.every((a) => typeof a === 'string' && a.trim().length > 0))
      return checkpointMessages.outputAnswers;
  } else {
    if (choices.length < 2) return checkpointMessages.choicesInvalid;
    const numbers = c.answers.filter((a): a is number => typeof a === 'number');
    if (numbers.length !== c.answers.length || numbers.some((n) => n >= choices.length))
      return checkpointMessages.answersInvalid;
    if (new Set(numbers).size !== numbers.length) return checkpointMessages.answersInvalid;
    if (c.kind === 'single' && numbers.length !== 1) return checkpointMessages.singleOneAnswer;
  }
  if (c.rewindTo !== undefined && c.rewindTo !== null && c.rewindTo >= c.t)
    return checkpointMessages.rewindInvalid;
  return undefined;
}

export const CheckpointBody = CheckpointFields.superRefine((c, context) => {
  const problem = checkpointProblem(c);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
/** A change: the fields sent replace the stored ones; the whole is checked again by the server. */
export const CheckpointPatchBody = CheckpointFields.partial().extend({
  required: z.boolean({ error: checkpointMessages.requiredInvalid }).optional(),
});
export type CheckpointBody = z.output<typeof CheckpointBody>;
export type CheckpointPatchBody = z.output<typeof CheckpointPatchBody>;

/** A student's answer: a choice number (single), choice numbers (multiple), or the printed text (output). */
export const AttemptBody = z.object({
  answer: z.union(
    [
      z.number().int().min(0).max(limits.choices),
      z.array(z.number().int().min(0).max(limits.choices)).max(limits.choices),
      z.string().max(limits.outputChars),
    ],
    { error: checkpointMessages.answerShape },
  ),
});
export type AttemptAnswer = z.output<typeof AttemptBody>['answer'];

export const CheckpointIdParam = z.object({ checkpointId: z.string() });

/** A number of students or of attempts. */
const count = z.number().int();

/**
 * One line of a checkpoint's answers' distribution: for a choice checkpoint a choice's text, the
 * attempts that picked it and whether it is a right one; for an output checkpoint one of the most
 * common outputs (normalised as the judge normalises), its attempts and whether it is accepted.
 */
export const AnswerCount = z.strictObject({ answer: z.string(), count, correct: z.boolean() });
export type AnswerCount = z.infer<typeof AnswerCount>;

/**
 * How students fared at a checkpoint: reached (their saved progress covers its second), answered,
 * passed, right at the first attempt, attempts in all, and the answers given (the 10 most frequent).
 */
export const CheckpointStats = z.strictObject({
  reached: count,
  answered: count,
  passed: count,
  firstTryCorrect: count,
  attempts: count,
  distribution: z.array(AnswerCount),
});
export type CheckpointStats = z.infer<typeof CheckpointStats>;

/** A checkpoint as staff see it: with its answers (and, in the list, how students fared). */
export const StaffCheckpoint = z.strictObject({
  _id: z.string(),
  videoId: z.string(),
  t: z.number(),
  kind: z.enum(CHECKPOINT_KINDS),
  prompt: z.string(),
  choices: z.array(z.string()),
  answers: z.array(z.union([z.number(), z.string()])),
  required: z.boolean(),
  rewindTo: z.number().nullable(),
  stats: CheckpointStats.optional(),
});
export type StaffCheckpoint = z.infer<typeof StaffCheckpoint>;
export const StaffCheckpointList = z.strictObject({ checkpoints: z.array(StaffCheckpoint) });
export const StaffCheckpointSaved = z.strictObject({ message: z.string(), checkpoint: StaffCheckpoint });

/** A checkpoint as a student sees it: never its answers (nor where a wrong answer rewinds to). */
export const StudentCheckpoint = z.strictObject({
  _id: z.string(),
  t: z.number(),
  kind: z.enum(CHECKPOINT_KINDS),
  prompt: z.string(),
  choices: z.array(z.string()),
  required: z.boolean(),
  passed: z.boolean(),
});
export type StudentCheckpoint = z.infer<typeof StudentCheckpoint>;
export const StudentCheckpointList = z.array(StudentCheckpoint);

export const AttemptResponse = z.strictObject({
  correct: z.boolean(),
  rewindTo: z.number().optional(),
});
export type AttemptResponse = z.infer<typeof AttemptResponse>;

export const LectureCompletion = z.strictObject({
  videoId: z.string(),
  watched: z.number().min(0).max(1),
  checkpointsPassed: z.number().int().min(0),
  checkpointsRequired: z.number().int().min(0),
  complete: z.boolean(),
});
export type LectureCompletion = z.infer<typeof LectureCompletion>;
export const CompletionResponse = z.strictObject({
  complete: z.boolean(),
  lectures: z.array(LectureCompletion),
});
export type CompletionResponse = z.infer<typeof CompletionResponse>;

/**
 * Whether an output matches an accepted one: line ends normalised (CRLF, CR → LF), trailing spaces
 * and tabs of every line and trailing blank lines dropped. Nothing is run.
 */
export function normaliseOutput(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
}
