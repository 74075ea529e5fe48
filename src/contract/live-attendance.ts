import { z } from 'zod';
import { AnalyticsFormatQuery } from './analytics';
import { LiveClassStatus } from './live';

/**
 * Attendance of a live class (issue 38, docs/LIVE.md "Attendance"): per student of its course,
 * when they joined the class live (their first key of the live stream), the minutes they watched
 * live and the minutes of the recording they watched after the end.
 */
export const LiveAttendanceQuery = AnalyticsFormatQuery;

export const LiveAttendanceStudent = z.strictObject({
  studentId: z.string(),
  name: z.string(),
  rollno: z.string().nullable(),
  username: z.string(),
  /** When they first fetched a key of the live stream; null: they did not join live. */
  joinedAt: z.string().nullable(),
  liveMinutes: z.number(),
  recordingMinutes: z.number(),
});
export type LiveAttendanceStudent = z.infer<typeof LiveAttendanceStudent>;

export const LiveAttendanceResponse = z.strictObject({
  class: z.strictObject({
    _id: z.string(),
    title: z.string(),
    startsAt: z.string(),
    minutes: z.number().int(),
    status: LiveClassStatus,
  }),
  /** Students of the course (and anyone who watched, though no longer enrolled), by roll number. */
  students: z.array(LiveAttendanceStudent),
  summary: z.strictObject({
    students: z.number().int(),
    joined: z.number().int(),
    watchedRecording: z.number().int(),
  }),
});
export type LiveAttendanceResponse = z.infer<typeof LiveAttendanceResponse>;

/** The CSV download's columns, in order. */
export const LIVE_ATTENDANCE_CSV_HEADER = [
  'Roll number',
  'Name',
  'Username',
  'Joined live at',
  'Minutes watched live',
  'Minutes of the recording',
] as const;
