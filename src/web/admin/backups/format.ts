import type { BackupRun } from '../../../contract/backups';
import { formatBytes } from '../ui/format';

/** "850 ms", "42 s", "3 min 05 s", "1 h 02 min". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

export const formatSize = (bytes: number | null) => (bytes === null ? '—' : formatBytes(bytes));

/** "12 of 340" objects copied (the rest were already in an earlier backup). */
export function formatObjects(run: Pick<BackupRun, 'objectsCopied' | 'objectsTotal'>): string {
  if (run.objectsCopied === null) return '—';
  return run.objectsTotal === null
    ? String(run.objectsCopied)
    : `${run.objectsCopied.toLocaleString()} of ${run.objectsTotal.toLocaleString()}`;
}

export const triggerLabel: Record<BackupRun['trigger'], string> = {
  schedule: 'Scheduled',
  manual: 'On demand',
  cli: 'Command line',
};

/** The run as the subject of a sentence: "The scheduled backup". */
export const runNoun: Record<BackupRun['trigger'], string> = {
  schedule: 'The scheduled backup',
  manual: 'The on-demand backup',
  cli: 'The command-line backup',
};

/** A run's status as a person says it; a queued run with an error is waiting to retry. */
export function statusLabel(run: BackupRun): string {
  if (run.status === 'queued' && run.error) return 'Retrying';
  return { queued: 'Queued', running: 'Running', complete: 'Complete', failed: 'Failed' }[run.status];
}

export const statusColor = (run: BackupRun) =>
  ({ queued: 'gray', running: 'blue', complete: 'green', failed: 'red' })[run.status];

/** When a run happened: its start, or when it was asked for. */
export const runTime = (run: BackupRun) => run.startedAt ?? run.createdAt;

export const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
