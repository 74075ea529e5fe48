/** A backup, verify or restore that cannot go on: the message is one line a person can act on. */
export class BackupError extends Error {}

/**
 * The target (or the media store) is unreachable or refuses us: the same backup may succeed later,
 * so the job runner retries it without using up an attempt (jobs/types.ts `isRetryLater`).
 */
export class BackupTargetUnavailableError extends BackupError {
  readonly retryLater = true;
}
