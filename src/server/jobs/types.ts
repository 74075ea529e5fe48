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
