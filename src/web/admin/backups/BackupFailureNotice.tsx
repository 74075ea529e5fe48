import { Alert, Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { BackupRun } from '../../../contract/backups';
import { runNoun, when } from './format';

/**
 * The last backup failed and none has succeeded since: shown on the dashboard and the backups screen
 * until one does.
 */
export function BackupFailureNotice({ run, link = false }: { run: BackupRun; link?: boolean }) {
  return (
    <Alert
      color="red"
      variant="light"
      title="The last backup failed"
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      role="alert"
    >
      <Text size="sm">
        {runNoun[run.trigger]} of {when(run.startedAt ?? run.createdAt)} failed
        {run.attempts > 1 ? ` after ${run.attempts} attempts` : ''}:{' '}
        <Text span fw={600} style={{ overflowWrap: 'anywhere' }}>
          {run.error ?? 'no reason was recorded'}
        </Text>
      </Text>
      <Text size="sm" mt={4}>
        Nothing has been backed up since.{' '}
        {link ? (
          <Anchor component={Link} to="/adminbackups" size="sm" fw={600}>
            Open Backups
          </Anchor>
        ) : (
          'Fix the cause, then back up now.'
        )}
      </Text>
    </Alert>
  );
}
