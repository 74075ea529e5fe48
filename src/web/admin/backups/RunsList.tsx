import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, useMatches } from '@mantine/core';
import type { BackupRun } from '../../../contract/backups';
import { DataTable } from '../ui/DataTable';
import {
  formatDuration,
  formatObjects,
  formatSize,
  runTime,
  statusColor,
  statusLabel,
  triggerLabel,
  when,
} from './format';

function Status({ run }: { run: BackupRun }) {
  return (
    <Badge color={statusColor(run)} variant="dot" radius="sm">
      {statusLabel(run)}
    </Badge>
  );
}

/** Under the status: why it failed, or that retention has removed the backup since. */
function StatusNote({ run, clamp }: { run: BackupRun; clamp?: boolean }) {
  if (run.error)
    return (
      <Text
        size="xs"
        c="red.8"
        mt={4}
        lineClamp={clamp ? 2 : undefined}
        title={run.error}
        style={{ overflowWrap: 'anywhere' }}
      >
        {run.error}
      </Text>
    );
  if (run.kept === false)
    return (
      <Text size="xs" c="dimmed" mt={4}>
        Removed by retention
      </Text>
    );
  return null;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}

/** Past and current runs: a table on wide screens, one card per run on phones. */
export function RunsList({ runs }: { runs: BackupRun[] }) {
  const layout = useMatches<'cards' | 'table'>({ base: 'cards', sm: 'table' });
  if (layout === 'cards')
    return (
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Backups">
        {runs.map((run) => (
          <Paper key={run.id} component="li" withBorder radius="md" p="sm">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} size="sm">
                {when(runTime(run))}
              </Text>
              <Status run={run} />
            </Group>
            <Text size="xs" c="dimmed" mb={6}>
              {triggerLabel[run.trigger]}
              {run.requestedBy ? ` by ${run.requestedBy}` : ''}
            </Text>
            <SimpleGrid cols={3} spacing="xs">
              <Figure label="Size" value={formatSize(run.bytes)} />
              <Figure label="Objects copied" value={formatObjects(run)} />
              <Figure label="Duration" value={formatDuration(run.durationMs)} />
            </SimpleGrid>
            <StatusNote run={run} />
          </Paper>
        ))}
      </Stack>
    );
  return (
    <DataTable minWidth={760} columns={['Time', 'Trigger', 'Status', 'Size', 'Objects copied', 'Duration']}>
      {runs.map((run) => (
        <Table.Tr key={run.id}>
          <Table.Td>{when(runTime(run))}</Table.Td>
          <Table.Td>
            {triggerLabel[run.trigger]}
            {run.requestedBy && (
              <Text size="xs" c="dimmed">
                by {run.requestedBy}
              </Text>
            )}
          </Table.Td>
          <Table.Td maw={320}>
            <Status run={run} />
            <StatusNote run={run} clamp />
          </Table.Td>
          <Table.Td>{formatSize(run.bytes)}</Table.Td>
          <Table.Td>{formatObjects(run)}</Table.Td>
          <Table.Td>{formatDuration(run.durationMs)}</Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
