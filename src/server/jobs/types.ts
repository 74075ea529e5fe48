import type { FastifyBaseLogger } from 'fastify';

/**
 * Payload of each job type. Domains add their own types by augmenting this interface
 * (`declare module '../jobs/types'`), so the queue stays typed without knowing every domain.
 */
export interface JobPayloads {
  /** Deletes expired sessions and one-time codes. */
  'accounts.purge-expired': Record<string, never>;
}

export type JobType = keyof JobPayloads;

export interface JobRunContext {
  jobId: string;
  attempt: number;
  /** Aborted when the job is cancelled or the runner stops; handlers pass it to child processes. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

export type JobHandler<T extends JobType> = (payload: JobPayloads[T], run: JobRunContext) => Promise<void>;

export type JobHandlers = { [T in JobType]: JobHandler<T> };

/** Thrown by a handler for a failure that retrying cannot fix (e.g. an unreadable upload). */
export class PermanentJobError extends Error {}

/**
 * Thrown (or duck-typed with `retryLater: true`) for a failure of something the job depends on, such
 * as the media store being unreachable: retried with a growing backoff without using up an attempt,
 * so an outage never fails the work itself.
 */
export class RetryLaterError extends Error {
  readonly retryLater = true;
}

export const isRetryLater = (error: unknown) =>
  error instanceof RetryLaterError || (error as { retryLater?: unknown } | null)?.retryLater === true;

/**
 * A handler may say when its next attempt should be (`retryAfterMs` on the error it throws), for work
 * whose failures need minutes, not seconds, to clear (a backup target that is away).
 */
export const retryDelayOf = (error: unknown): number | undefined => {
  const ms = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof ms === 'number' && ms >= 0 ? ms : undefined;
};
