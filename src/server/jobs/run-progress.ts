/** Progress is written to a run's row at most this often (and at once when its step changes). */
export const PROGRESS_EVERY_MS = 1_000;

/** One line a person can act on: the first line of the message, without a stack. */
export const oneLine = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').trim().slice(0, 500) || 'unknown error';
};

/** How a long job's run row is kept up to date while its work runs. */
export interface RunProgressOptions<P> {
  /** The job's signal (JobRunContext): aborted when the worker stops or the job is cancelled. */
  signal: AbortSignal;
  /** Writes one progress value to the run's row. */
  save(progress: P): Promise<void>;
  /** The step a value belongs to: a new step is written at once, whatever the time since the last write. */
  stepOf(progress: P): string;
  /** A write failed: logged by the caller, never fatal to the work. */
  onSaveError(error: unknown): void;
  /** The work was aborted: the run waits again for its job to be picked up. */
  interrupt(): Promise<void>;
}

/** The work's result, or why it failed (an abort is never returned: it is thrown). */
export type RunOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs a long job's `work`, saving the progress it reports to the run's row without a write per
 * step: throttled (PROGRESS_EVERY_MS, and each new step at once), in order, never overlapping, and
 * what is pending saved before this returns. When the job's signal aborted, the run is put back to
 * wait (`interrupt`) and the error is thrown, so the runner hands the job back; any other failure
 * is returned for the job to record. Used by the backup and the trace jobs.
 */
export async function runWithProgress<P, T>(
  options: RunProgressOptions<P>,
  work: (onProgress: (progress: P) => void) => Promise<T>,
): Promise<RunOutcome<T>> {
  let lastStep: string | undefined;
  let lastAt = 0;
  let pending: { value: P } | undefined;
  let chain = Promise.resolve();
  // A copy now: the work may change the object it reported after reporting it.
  const write = (progress: P) => {
    const copy = structuredClone(progress);
    chain = chain.then(() => options.save(copy)).catch(options.onSaveError);
  };
  const onProgress = (progress: P) => {
    const now = Date.now();
    const step = options.stepOf(progress);
    if (step !== lastStep || now - lastAt >= PROGRESS_EVERY_MS) {
      lastStep = step;
      lastAt = now;
      pending = undefined;
      write(progress);
    } else pending = { value: structuredClone(progress) };
  };
  const flush = async () => {
    if (pending) write(pending.value);
    pending = undefined;
    await chain;
  };
  try {
    const value = await work(onProgress);
    await flush();
    return { ok: true, value };
  } catch (error) {
    await flush();
    if (options.signal.aborted) {
      await options.interrupt();
      throw error;
    }
    return { ok: false, error };
  }
}
