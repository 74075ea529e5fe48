import { Badge, Group, Paper, Stack, Table, Text, Title, useMatches } from '@mantine/core';
import { displayCode } from '../../../contract/playback';
import { traceRunMessages, type TraceRun } from '../../../contract/trace-runs';
import { useTraceRuns } from '../../api/trace-runs';
import { DataTable } from '../ui/DataTable';
import { Empty } from '../ui/Empty';
import { formatBytes } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { TableSkeleton } from '../ui/TableSkeleton';
import { when } from './fields';

const STATUS: Record<TraceRun['status'], { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  done: { label: 'Done', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

/** What a run found, in a line: the students named, nobody, or why it failed. */
function outcomeOf(run: TraceRun): { text: string; detail?: string; tone?: string } {
  if (run.status === 'failed') return { text: run.error ?? 'No reason was recorded.', tone: 'red.8' };
  const result = run.result;
  if (!result)
    return { text: run.status === 'running' ? `${Math.round(run.progress * 100)}%` : '—', tone: 'dimmed' };
  if (result.kind === 'matched' && result.accused.length)
    return {
      text: result.accused
        .map((a) => `${a.student.name}${a.student.rollno ? ` (${a.student.rollno})` : ''}`)
        .join(', '),
      detail: `${result.accused.map((a) => displayCode(a.code)).join(', ')} · ${result.title}`,
    };
  return { text: 'No session found', detail: result.reason ?? undefined, tone: 'dimmed' };
}

function StatusBadge({ run }: { run: TraceRun }) {
  return (
    // The dot variant keeps the text dark: light badges' coloured text is below 4.5:1 at this size.
    <Badge color={STATUS[run.status].color} variant="dot" radius="sm">
      {STATUS[run.status].label}
    </Badge>
  );
}

/** The result line, and under it the codes and video (or the reason), clamped in the table. */
function Outcome({ outcome, clamp }: { outcome: ReturnType<typeof outcomeOf>; clamp?: boolean }) {
  return (
    <>
      <Text size="sm" fw={outcome.tone ? 400 : 600} c={outcome.tone}>
        {outcome.text}
      </Text>
      {outcome.detail && (
        <Text
          size="xs"
          c="dimmed"
          lineClamp={clamp ? 2 : undefined}
          title={outcome.detail}
          style={{ overflowWrap: 'anywhere' }}
        >
          {outcome.detail}
        </Text>
      )}
    </>
  );
}

/** The runs as a table, on wider screens. */
function RunsTable({ runs }: { runs: TraceRun[] }) {
  return (
    <DataTable minWidth={760} columns={['When', 'File', 'By', 'Status', 'Result']}>
      {runs.map((run) => {
        const outcome = outcomeOf(run);
        return (
          <Table.Tr key={run.id}>
            <Table.Td>{when(run.createdAt)}</Table.Td>
            <Table.Td maw={220}>
              <Text size="sm" truncate="end" title={run.fileName}>
                {run.fileName}
              </Text>
              <Text size="xs" c="dimmed">
                {formatBytes(run.sizeBytes)}
                {run.video ? ` · ${run.video.title}` : ''}
              </Text>
            </Table.Td>
            <Table.Td>{run.createdBy ?? '—'}</Table.Td>
            <Table.Td>
              <StatusBadge run={run} />
            </Table.Td>
            <Table.Td maw={320}>
              <Outcome outcome={outcome} clamp />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </DataTable>
  );
}

/** On a phone: a card per run, the result in full width (a table would hide it to the right). */
function RunCards({ runs }: { runs: TraceRun[] }) {
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Recent traces">
      {runs.map((run) => {
        const outcome = outcomeOf(run);
        return (
          <Paper key={run.id} component="li" withBorder radius="md" p="sm">
            <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {run.fileName}
              </Text>
              <StatusBadge run={run} />
            </Group>
            <Text size="xs" c="dimmed" mb={6}>
              {when(run.createdAt)} · {run.createdBy ?? '—'} · {formatBytes(run.sizeBytes)}
            </Text>
            <Outcome outcome={outcome} />
          </Paper>
        );
      })}
    </Stack>
  );
}

/** Cards on phones, a table from `sm` up. */
function Runs({ runs }: { runs: TraceRun[] }) {
  const cards = useMatches({ base: true, sm: false });
  return cards ? <RunCards runs={runs} /> : <RunsTable runs={runs} />;
}

const skeleton = <TableSkeleton rows={3} label="Loading traces" />;
const none = 'Copies you upload above are listed here with what they found.';

/** The last traces of downloaded copies, newest first: when, which file, by whom, how it went. */
export function RecentTraces() {
  const runs = useTraceRuns();
  return (
    <section aria-labelledby="recent-traces">
      <Title order={2} size="h4" id="recent-traces" mb="sm">
        Recent traces
      </Title>
      <Loaded query={runs} failure={traceRunMessages.loadFailed} loading={skeleton}>
        {({ runs: list }) =>
          list.length ? <Runs runs={list} /> : <Empty title="No traces yet." description={none} />
        }
      </Loaded>
    </section>
  );
}
