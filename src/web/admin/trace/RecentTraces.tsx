import { Badge, Table, Text, Title } from '@mantine/core';
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

/** The runs as a table (it scrolls sideways on a phone). */
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
              <Badge color={STATUS[run.status].color} variant="light" radius="sm">
                {STATUS[run.status].label}
              </Badge>
            </Table.Td>
            <Table.Td maw={320}>
              <Text size="sm" fw={outcome.tone ? 400 : 600} c={outcome.tone}>
                {outcome.text}
              </Text>
              {outcome.detail && (
                <Text
                  size="xs"
                  c="dimmed"
                  lineClamp={2}
                  title={outcome.detail}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {outcome.detail}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        );
      })}
    </DataTable>
  );
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
          list.length ? <RunsTable runs={list} /> : <Empty title="No traces yet." description={none} />
        }
      </Loaded>
    </section>
  );
}
