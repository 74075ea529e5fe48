import { Alert, Button, Stack, Title } from '@mantine/core';
import { IconDatabaseExport } from '@tabler/icons-react';
import { backupMessages, type BackupOverview } from '../../../contract/backups';
import { reasonOf } from '../../api/client';
import { useBackupProgress, useBackUpNow, useBackups } from '../../api/backups';
import { Empty } from '../ui/Empty';
import { Loaded } from '../ui/Loaded';
import { PageHeader } from '../ui/PageHeader';
import { TableSkeleton } from '../ui/TableSkeleton';
import { ActiveBackup } from './ActiveBackup';
import { BackupFailureNotice } from './BackupFailureNotice';
import { when } from './format';
import { RunsList } from './RunsList';

function scheduleLine({ schedule, lastSuccessAt }: BackupOverview): string {
  const plan = schedule.time
    ? `Backs up every day at ${schedule.time} (${schedule.timeZone})${schedule.next ? `; next ${when(schedule.next)}` : ''}.`
    : 'Scheduled backups are off (BACKUP_SCHEDULE=off): back up now when you need one.';
  const kept = ` Keeps the ${schedule.keep} newest.`;
  const last = lastSuccessAt
    ? ` Last successful backup ${when(lastSuccessAt)}.`
    : ' No successful backup yet.';
  return plan + kept + last;
}

/**
 * /adminbackups: every backup run (time, size, objects copied, duration, status), "Back up now" with
 * its progress while it runs, and the last failure with its reason until a backup succeeds.
 */
export default function BackupsPage() {
  const backups = useBackups();
  const backUpNow = useBackUpNow();
  const active = useBackupProgress(backups.data?.active);
  const running = Boolean(active) || backUpNow.isPending;

  return (
    <>
      <PageHeader
        title="Backups"
        description={
          backups.data
            ? scheduleLine(backups.data)
            : 'The database and every video, so one lost disk never loses the school.'
        }
        actions={
          <Button
            leftSection={<IconDatabaseExport size={16} aria-hidden="true" />}
            onClick={() => backUpNow.mutate()}
            loading={backUpNow.isPending}
            disabled={running || !backups.data}
          >
            Back up now
          </Button>
        }
      />
      <Stack gap="md">
        <div aria-live="polite">
          {backUpNow.isError && (
            <Alert color="red" title={backupMessages.startFailed}>
              {reasonOf(backUpNow.error) ?? 'Please try again.'}
            </Alert>
          )}
        </div>
        {backups.data?.targetProblem && (
          <Alert color="orange" variant="light" title="The backups at the target cannot be listed">
            {backups.data.targetProblem}
          </Alert>
        )}
        {backups.data?.keysLeftOut && (
          <Alert color="yellow" variant="light" title="Backups leave the video keys out">
            {backups.data.keysLeftOut}
          </Alert>
        )}
        {active && <ActiveBackup run={active} />}
        {backups.data?.lastFailure && !active && <BackupFailureNotice run={backups.data.lastFailure} />}
        <section aria-labelledby="backup-runs">
          <Title order={2} size="h3" id="backup-runs" mb="sm">
            History
          </Title>
          <Loaded
            query={backups}
            failure={backupMessages.loadFailed}
            loading={<TableSkeleton rows={4} label="Loading backups" />}
          >
            {(data) =>
              data.runs.length === 0 ? (
                <Empty
                  title="No backups yet."
                  description={
                    data.schedule.time
                      ? `The first scheduled backup runs at ${data.schedule.time}; or back up now.`
                      : 'Press Back up now to take the first one.'
                  }
                />
              ) : (
                <RunsList runs={data.runs} />
              )
            }
          </Loaded>
        </section>
      </Stack>
    </>
  );
}
