/** The backup job, added to the queue's typed registry. */
declare module '../jobs/types' {
  interface JobPayloads {
    /** Writes one backup for a `backup_runs` row (its progress goes there), then prunes to BACKUP_KEEP. */
    'backup.run': { runId: string };
  }
}

export {};
