import { z } from 'zod';

/**
 * Tracing a downloaded copy from the "Trace a leak" screen (docs/FORENSIC.md, "Tracing from the
 * screen"): the admin uploads the file, a job decodes it and names the playback session.
 */

/** The largest copy the upload box takes: a two-hour lecture at 720p is about 1 GiB. */
export const MAX_TRACE_UPLOAD_BYTES = 2 * 1024 ** 3;

/** What the file input offers (any file ffmpeg reads as a video is traced). */
export const TRACE_UPLOAD_ACCEPT = 'video/*,.mp4,.ts,.mkv,.mov,.webm';

const minutes = (seconds: number) => `${(seconds / 60).toFixed(1)} minutes`;

export const traceRunMessages = {
  fileMissing: 'Attach the leaked video file.',
  fileEmpty: 'The file is empty.',
  tooLarge: 'The file is larger than the limit of 2 GB.',
  notAVideo: 'This file is not a video: ffmpeg finds no video stream in it.',
  tooShort: (seconds: number, needed: number) =>
    `This copy is ${Math.round(seconds)} s long: too short to name anyone. A trace needs at least ${minutes(needed)} of a marked video.`,
  videoNotFound: 'No video with this id.',
  videoNotMarked:
    'This video has no marked renditions (FORENSIC_MARKS was off when it was packaged): a copy of it cannot be traced.',
  noMarkedVideo:
    'No video has marked renditions yet (FORENSIC_MARKS=on marks videos as they are packaged): there is nothing to trace a copy to.',
  queued: 'Upload received. Tracing starts in a moment.',
  runNotFound: 'No trace with this id.',
  tooMany: 'Too many traces. Please try again later.',
  loadFailed: 'Could not load the traces.',
  uploadFailed: 'Could not upload the file.',
} as const;

export const TRACE_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

/** The multipart fields beside the `file` part: the video the copy is from, when the admin knows it. */
export const TraceUploadFields = z.object({
  videoId: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined),
});

const iso = z.string();

/** A session the copy names, and its student. */
export const TracedLeak = z.strictObject({
  code: z.string(),
  score: z.number(),
  agreements: z.number().int(),
  decided: z.number().int(),
  /** ln of the chance that an innocent session agrees this often. */
  logInnocentChance: z.number(),
  startedAt: iso,
  ip: z.string(),
  student: z.strictObject({
    id: z.string(),
    name: z.string(),
    rollno: z.string().nullable(),
    username: z.string(),
  }),
});
export type TracedLeak = z.infer<typeof TracedLeak>;

/** Why nobody was named, in the words of `npm run cli -- trace:file` (null when someone was). */
const reason = z.string().nullable();

/** The answer of a trace (the CLI's TraceFileResult as JSON). */
export const TraceResult = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('not-a-video'), reason }),
  z.strictObject({ kind: z.literal('no-marked-video'), videoId: z.string().nullable(), reason }),
  z.strictObject({ kind: z.literal('no-match'), videoId: z.string().nullable(), reason }),
  z.strictObject({
    kind: z.literal('matched'),
    videoId: z.string(),
    title: z.string(),
    /** Where the copy starts in the video, in seconds. */
    startsAt: z.number(),
    decided: z.number().int(),
    undecided: z.number().int(),
    /** Agreements needed out of `decided`; null: too few segments decided to name anyone. */
    threshold: z.number().int().nullable(),
    accused: z.array(TracedLeak),
    reason,
  }),
]);
export type TraceResult = z.infer<typeof TraceResult>;

export const TraceRun = z.strictObject({
  id: z.string(),
  createdAt: iso,
  /** The admin who uploaded the copy (null once their account is gone). */
  createdBy: z.string().nullable(),
  fileName: z.string(),
  sizeBytes: z.number().int(),
  status: z.enum(TRACE_RUN_STATUSES),
  /** 0..1 while running (1 once done). */
  progress: z.number(),
  /** What the job is doing: decoding the copy, comparing it with a video, scoring sessions. */
  phase: z.string().nullable(),
  /** The video the admin said the copy is from. */
  video: z.strictObject({ id: z.string(), title: z.string() }).nullable(),
  startedAt: iso.nullable(),
  finishedAt: iso.nullable(),
  result: TraceResult.nullable(),
  /** Why the trace could not run (a failed run), in one line. */
  error: z.string().nullable(),
});
export type TraceRun = z.infer<typeof TraceRun>;

export const MarkedVideo = z.strictObject({ id: z.string(), title: z.string() });
export type MarkedVideo = z.infer<typeof MarkedVideo>;

export const TraceRunsResponse = z.strictObject({
  runs: z.array(TraceRun),
  /** Videos with a forensic secret: the ones a copy can be traced to. */
  markedVideos: z.array(MarkedVideo),
  /** FORENSIC_MARKS=on: videos are marked as they are packaged. */
  marksOn: z.boolean(),
  maxBytes: z.number().int(),
});
export type TraceRunsResponse = z.infer<typeof TraceRunsResponse>;

export const TraceRunParam = z.object({ runId: z.string() });
export const TraceRunResponse = z.strictObject({ run: TraceRun });
export const TraceRunStarted = z.strictObject({ message: z.string(), run: TraceRun });

/** A run waiting or under way: the screen polls it. */
export const traceUnderWay = (run: Pick<TraceRun, 'status'>) =>
  run.status === 'queued' || run.status === 'running';
