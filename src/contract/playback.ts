import { z } from 'zod';

/** Crockford base32: no I, L, O or U, so a code read off a screenshot is not misread. */
export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CODE_LENGTH = 8;

export const traceMessages = {
  codeInvalid: `A session code is ${CODE_LENGTH} characters: digits and letters (no I, L, O or U).`,
  notFound: 'No playback session with this code (sessions are kept for a limited time).',
  tooMany: 'Too many lookups. Please try again later.',
  loadFailed: 'Could not look up the code.',
} as const;

/**
 * A code as a person types it from a picture: any case, spaces and dashes ignored, and the
 * look-alikes Crockford maps (O to 0, I and L to 1). Undefined when it cannot be a code.
 */
export function normalizeCode(input: string): string | undefined {
  const code = input
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (code.length !== CODE_LENGTH) return undefined;
  for (const ch of code) if (!CODE_ALPHABET.includes(ch)) return undefined;
  return code;
}

/** The code as drawn: two groups of four, easier to read and to type. */
export const displayCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

export const PlaybackBody = z.object({ videoId: z.string({ error: 'videoId is required.' }).trim().min(1) });
export const PlaybackResponse = z.strictObject({ code: z.string() });

export const TraceCodeParam = z.object({ code: z.string() });

const TracedSession = z.strictObject({
  code: z.string(),
  startedAt: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  video: z.strictObject({ _id: z.string(), title: z.string() }).nullable(),
  course: z.strictObject({ _id: z.string(), name: z.string(), coursecode: z.string() }).nullable(),
});
export type TracedSession = z.infer<typeof TracedSession>;

export const TraceResponse = z.strictObject({
  session: TracedSession,
  student: z.strictObject({
    _id: z.string(),
    name: z.string(),
    rollno: z.string().nullable(),
    username: z.string(),
    role: z.enum(['admin', 'student', 'instructor']),
  }),
  /** The same person's other playback sessions within a day either side, newest first. */
  nearby: z.array(TracedSession),
});
export type TraceResponse = z.infer<typeof TraceResponse>;
