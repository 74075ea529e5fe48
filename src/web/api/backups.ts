import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { BackupOverview, BackupRun } from '../../contract/backups';
import { call, calling } from './client';

/** Backups (base /api/admin/backups): the one query-key factory, the overview and "Back up now". */
export const backupKeys = {
  overview: ['admin', 'backups'] as const,
  summary: ['admin', 'backups', 'summary'] as const,
  run: (runId: string) => ['admin', 'backups', 'run', runId] as const,
};

/** How often the screen looks again while a backup is queued or running. */
export const BACKUP_POLL_MS = 1_500;

/** Runs, schedule and the unresolved failure (loaded once, and again when a backup ends). */
export function useBackups() {
  return useQuery({
    queryKey: backupKeys.overview,
    queryFn: calling('GET /api/admin/backups', {}),
    retry: 1,
  });
}

/** The unresolved failure and the run under way, without the list (the dashboard's notice). */
export function useBackupSummary({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: backupKeys.summary,
    queryFn: calling('GET /api/admin/backups', { query: { summary: 'true' } }),
    retry: 1,
    enabled,
  });
}

const underWay = (run: BackupRun | undefined) => run?.status === 'queued' || run?.status === 'running';

/**
 * The run under way, polled while it is queued or running; when it ends, the overview is loaded
 * again (its table, the failure notice, what is kept).
 */
export function useBackupProgress(active: BackupRun | null | undefined) {
  const client = useQueryClient();
  const runId = active?.id ?? '';
  const progress = useQuery({
    queryKey: backupKeys.run(runId),
    queryFn: calling('GET /api/admin/backups/:runId', { params: { runId } }),
    enabled: Boolean(active),
    initialData: active ? { run: active } : undefined,
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => (underWay(query.state.data?.run) ? BACKUP_POLL_MS : false),
    retry: 3,
  });
  const run = active ? (progress.data?.run ?? active) : null;
  const ended = Boolean(run) && !underWay(run ?? undefined);
  useEffect(() => {
    if (ended) void client.invalidateQueries({ queryKey: backupKeys.overview });
  }, [ended, client]);
  return run && underWay(run) ? run : null;
}

/** Queues a backup (or joins the one under way), then shows it at once. */
export function useBackUpNow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /api/admin/backups', {}),
    onSuccess: ({ run }) => {
      client.setQueryData<BackupOverview>(
        backupKeys.overview,
        (old) => old && { ...old, active: run, runs: [run, ...old.runs.filter((r) => r.id !== run.id)] },
      );
      void client.invalidateQueries({ queryKey: backupKeys.overview });
    },
  });
}
