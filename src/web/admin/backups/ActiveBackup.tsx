import { Group, Paper, Text, Title } from '@mantine/core';
import { phaseLabel, type BackupRun } from '../../../contract/backups';
import { formatBytes } from '../ui/format';
import { Meter } from '../ui/Meter';
import { statusLabel, when } from './format';

/** "12 of 340 objects · 45.0 MB written" (database and manifest phases count steps, not objects). */
function detail(progress: NonNullable<BackupRun['progress']>): string {
  const parts: string[] = [];
  if (progress.total)
    parts.push(
      `${progress.done.toLocaleString()} of ${progress.total.toLocaleString()}${progress.phase === 'media' ? ' objects' : ''}`,
    );
  if (progress.bytes > 0) parts.push(`${formatBytes(progress.bytes)} written`);
  return parts.length ? ` · ${parts.join(' · ')}` : '';
}

/** The run under way: its phase and a progress bar (indeterminate until the engine knows the total). */
export function ActiveBackup({ run }: { run: BackupRun }) {
  const progress = run.progress;
  const percent =
    progress?.total && progress.total > 0
      ? Math.min(100, Math.round((progress.done / progress.total) * 100))
      : null;
  const waiting = run.status === 'queued';
  const label = waiting
    ? run.error
      ? `Attempt ${run.attempts} of ${run.maxAttempts} failed; retrying${run.nextAttemptAt ? ` at ${when(run.nextAttemptAt)}` : ''}`
      : 'Waiting to start'
    : progress
      ? phaseLabel(progress.phase)
      : 'Starting';
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="backup-active">
      <Group justify="space-between" align="baseline" mb="xs" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id="backup-active">
          Backup {statusLabel(run).toLowerCase()}
        </Title>
        <Text size="sm" c="dimmed">
          {percent !== null ? `${percent}%` : ''}
        </Text>
      </Group>
      <Meter
        label="Backup progress"
        percent={percent}
        text={percent !== null ? `${label}: ${percent}%` : label}
        color={waiting && run.error ? 'orange' : 'blue'}
        moving={!waiting}
      />
      <Text size="sm" mt="xs" aria-live="polite">
        {label}
        {progress && !waiting ? detail(progress) : ''}
      </Text>
      {waiting && run.error && (
        <Text size="sm" c="red.8" mt={4} style={{ overflowWrap: 'anywhere' }}>
          {run.error}
        </Text>
      )}
    </Paper>
  );
}
