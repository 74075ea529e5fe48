import { z } from 'zod';

/** Live classes (issue 38, docs/LIVE.md): staff schedule them, students watch their lecture live. */

export const LIVE_TITLE_MAX = 200;
export const LIVE_DESCRIPTION_MAX = 5000;
/** A class lasts 5 minutes to 8 hours. */
export const LIVE_MINUTES_MIN = 5;
export const LIVE_MINUTES_MAX = 480;

export const LiveClassStatus = z.enum(['scheduled', 'live', 'ended']);
export type LiveClassStatus = z.infer<typeof LiveClassStatus>;

const uuid = z.uuid({ message: 'expected a course id' });
const title = z.string().trim().min(1, 'A class needs a title.').max(LIVE_TITLE_MAX);
const description = z.string().trim().max(LIVE_DESCRIPTION_MAX);
const startsAt = z.iso.datetime({
  offset: true,
  message: 'expected a start time such as 2026-12-01T10:30:00Z',
});
const minutes = z.coerce
  .number()
  .int()
  .min(LIVE_MINUTES_MIN, `A class lasts at least ${LIVE_MINUTES_MIN} minutes.`)
  .max(LIVE_MINUTES_MAX, `A class lasts at most ${LIVE_MINUTES_MAX} minutes.`);

export const LiveClassCreateBody = z.object({
  courseId: uuid,
  title,
  description: description.default(''),
  startsAt,
  minutes,
});
export type LiveClassCreateBody = z.infer<typeof LiveClassCreateBody>;

export const LiveClassUpdateBody = z
  .object({ title, description, startsAt, minutes })
  .partial()
  .refine(
    (body) => Object.keys(body).length > 0,
    'Say what to change: title, description, startsAt or minutes.',
  );
export type LiveClassUpdateBody = z.infer<typeof LiveClassUpdateBody>;

export const LiveClassIdParam = z.object({ classId: z.string() });

/** Where the instructor's encoder sends the class: shown to staff of the course only. */
export const LiveIngest = z.strictObject({
  /** `srt://host:port?streamid=…&passphrase=…` (OBS: Server, with Stream Key left empty). */
  srtUrl: z.string(),
  /** `rtmp://host:1935/live` (OBS: Server); the stream key goes in OBS's Stream Key. */
  rtmpUrl: z.string(),
  streamKey: z.string(),
});

/** What a student sees of a class: no ingest. */
export const StudentLiveClass = z.strictObject({
  _id: z.string(),
  videoId: z.string(),
  title: z.string(),
  startsAt: z.string(),
  minutes: z.number().int(),
  status: LiveClassStatus,
});
export type StudentLiveClass = z.infer<typeof StudentLiveClass>;

/**
 * Where the packaging of an ended class's recording is (the `live.recording` job): waiting for a
 * worker (or to try again after a failed attempt), packaging (its step, and within it the part of
 * how many), done, or failed with the reason. The recording plays as streamed meanwhile and after a
 * failure.
 */
export const RecordingState = z.enum(['waiting', 'packaging', 'done', 'failed']);
export type RecordingState = z.infer<typeof RecordingState>;

/** The packaging's steps in order (docs/LIVE.md "The recording"): the ladder is marked or not. */
export const RecordingStep = z.enum(['source', 'poster', 'renditions', 'marked renditions', 'search index']);
export type RecordingStep = z.infer<typeof RecordingStep>;

export const LiveRecording = z.strictObject({
  state: RecordingState,
  /** While packaging: the step it reported last (absent until its first). */
  step: RecordingStep.optional(),
  /** Within the step, when it has parts (the renditions): the one it is on, from 1, of how many. */
  part: z.number().int().optional(),
  parts: z.number().int().optional(),
  /** Failed: why; waiting after a failed attempt: why that attempt failed. One line. */
  message: z.string().optional(),
});
export type LiveRecording = z.infer<typeof LiveRecording>;

/** What staff see of a class: the student's view with its course, description, ingest and recording. */
export const AdminLiveClass = z.strictObject({
  ...StudentLiveClass.shape,
  courseId: z.string(),
  description: z.string(),
  /** The recording's packaging once the class ended with a stream; null before, or with none. */
  recording: LiveRecording.nullable(),
  ingest: LiveIngest,
});
export type AdminLiveClass = z.infer<typeof AdminLiveClass>;

export const AdminLiveClassList = z.strictObject({ classes: z.array(AdminLiveClass) });

export const liveMessages = {
  notFound: 'No such live class.',
  courseNotFound: 'No such course.',
  created: 'Class scheduled.',
  updated: 'Class updated.',
  deleted: 'Class deleted.',
  keyRotated: 'A new stream key is set: update it in your encoder.',
  noCourseAccess: 'You do not have access to this course.',
  alreadyEnded: 'This class has ended: its recording is a lecture of the course.',
  alreadyOver: 'This class would already be over: pick a later start.',
  deleteLive: 'This class is live: stop the encoder before deleting it.',
  startedCannotMove: 'This class is live: its start and length can no longer change.',
  noPorts: 'Every SRT port is taken by a scheduled class: end or delete one, or widen LIVE_SRT_PORTS.',
  /** `window` such as "10:00–22:00 Asia/Kolkata". */
  outsideHours: (window: string) => `Classes start within the opening hours (${window}).`,
} as const;

export const LIVE_CALENDAR_TYPE = 'text/calendar';
