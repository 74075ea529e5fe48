/** The forensic domain's jobs, added to the queue's typed registry. */
declare module '../jobs/types' {
  interface JobPayloads {
    /** Traces the copy uploaded for a `trace_runs` row (its progress and answer go there), then deletes it. */
    'forensic.trace': { runId: string };
    /** Deletes uploaded copies a crash left behind for a day, and fails the runs they belonged to. */
    'forensic.purge-trace-files': Record<string, never>;
  }
}

/** A trace decodes for minutes on one core: one at a time per worker, so the other slot stays free. */
export const FORENSIC_TYPE_LIMITS = { 'forensic.trace': 1 } as const;

export {};
