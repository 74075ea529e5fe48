import type { z } from 'zod';
import type { WatchVerdict } from '../contract/access-policy';
import { mediaMessages } from '../contract/media';
import { serverMessages } from '../contract/messages';

/** An error meant for the client: its status and `{ message, ...extra }` become the response. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new HttpError(400, message, extra);
export const unauthorized = (message: string = serverMessages.notSignedIn) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new HttpError(409, message, extra);
export const tooLarge = (message: string) => new HttpError(413, message);
export const unprocessable = (message: string) => new HttpError(422, message);
export const locked = (message: string) => new HttpError(423, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(
    429,
    message,
    { retryAfter: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
export const unavailable = (message: string, extra?: Record<string, unknown>) =>
  new HttpError(503, message, extra);
export const insufficientStorage = (message: string) => new HttpError(507, message);

/**
 * The one answer to a watch the access rule refuses (contract/access-policy.ts), for playlists,
 * keys, posters, captions, playback sessions and progress: 404 for no such video, else 403 naming
 * why. Returns when the decision is `allowed`.
 */
export function refuseWatch(decision: WatchVerdict | 'not-found'): void {
  if (decision === 'not-found') throw notFound(mediaMessages.videoNotFound);
  if (decision === 'no-course-access') throw forbidden(mediaMessages.noCourseAccess);
  if (decision === 'no-video-access') throw forbidden(mediaMessages.noVideoAccess);
}

/**
 * Where `input` holds a string with a NUL character (`body` for the input itself), if anywhere.
 * PostgreSQL cannot store one in text: a query carrying it fails, which must be a 400, not a 500.
 * A loop, not recursion: a body may nest deeper than the stack.
 */
export function nullCharacterAt(input: unknown): string | undefined {
  const stack: [unknown, string][] = [[input, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, at] = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return at || 'body';
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const here = at ? `${at}.${key}` : key;
        if (key.includes('\u0000')) return here;
        stack.push([child, here]);
      }
    }
  }
  return undefined;
}

/** Validates input against a contract schema; the first problem becomes a 400 in the schema's own words. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const nul = nullCharacterAt(input);
  if (nul !== undefined) throw badRequest(`Invalid or missing field: ${nul}`);
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  // zod's stock messages ("Invalid input: …") are generic: name the field so the client can act on it.
  const generic = issue.message.startsWith('Invalid input') || issue.message.startsWith('Unrecognized key');
  throw badRequest(generic ? `Invalid or missing field: ${field || 'body'}` : issue.message);
}
