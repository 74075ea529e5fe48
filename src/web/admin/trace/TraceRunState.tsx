import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconUserSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { displayCode } from '../../../contract/playback';
import type { TracedLeak, TraceResult, TraceRun } from '../../../contract/trace-runs';
import { Field, when } from './fields';
import { Meter } from '../ui/Meter';

/** "0:12" from seconds. */
const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The chance that an innocent session agrees this often, as a bound a person can read. */
const innocentChance = (leak: TracedLeak) => `below ${Math.exp(leak.logInnocentChance).toExponential(1)}`;

/** One named session: the student, and how strongly the copy points at them. */
function NamedSession({ leak }: { leak: TracedLeak }) {
  const id = `traced-${leak.code}`;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby={id}
      bg="var(--mantine-color-body)"
    >
      <Group gap="xs" mb="sm">
        <IconUserSearch size={20} aria-hidden="true" />
        <Title order={4} size="h5" id={id}>
          Session {displayCode(leak.code)}
        </Title>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <Field label="Name" value={leak.student.name} />
        <Field label="Roll no" value={leak.student.rollno ?? '—'} />
        <Field label="Segments" value={`${leak.agreements} of ${leak.decided} segments agree`} />
        <Field label="Score" value={String(leak.score)} />
        <Field label="Chance for an innocent session" value={innocentChance(leak)} />
        <Field label="Username" value={leak.student.username} />
        <Field label="Started" value={when(leak.startedAt)} />
        <Field label="IP address" value={leak.ip} />
      </SimpleGrid>
    </Paper>
  );
}

const warning = <IconAlertTriangle size={18} aria-hidden="true" />;

/** A trace that named nobody or could not run: a light alert in `color`. */
function Outcome({ color, title, children }: { color: string; title: string; children: ReactNode }) {
  return (
    <Alert color={color} variant="light" title={title} icon={warning}>
      <Stack gap={4}>{children}</Stack>
    </Alert>
  );
}

/** The answer: the sessions named, or "No session found" with the reason. */
export function TraceAnswer({ result }: { result: TraceResult }) {
  const matched = result.kind === 'matched' ? result : null;
  const where = matched && (
    <Text size="sm">
      The copy matches “{matched.title}” from {clock(matched.startsAt)}: {matched.decided} segment
      {matched.decided === 1 ? '' : 's'} decided, {matched.undecided} undecided.
    </Text>
  );
  if (matched?.accused.length)
    return (
      <Stack gap="sm">
        <Title order={3} size="h5">
          {matched.accused.length === 1 ? 'One session named' : `${matched.accused.length} sessions named`}
        </Title>
        {where}
        {matched.accused.map((leak) => (
          <NamedSession key={leak.code} leak={leak} />
        ))}
      </Stack>
    );
  return (
    <Outcome color="yellow" title="No session found">
      {where}
      <Text size="sm">{result.reason}</Text>
    </Outcome>
  );
}

/** A trace under way (waiting, then decoding with a progress bar), or how it ended. */
export function TraceRunState({ run }: { run: TraceRun }) {
  if (run.status === 'failed')
    return (
      <Outcome color="red" title="The trace failed">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {run.error ?? 'No reason was recorded.'}
        </Text>
      </Outcome>
    );
  if (run.status === 'done' && run.result) return <TraceAnswer result={run.result} />;
  const percent = Math.round(run.progress * 100);
  const label = run.status === 'queued' ? 'Waiting to start' : (run.phase ?? 'Starting');
  return (
    <div>
      <Group justify="space-between" align="baseline" mb={4} wrap="nowrap" gap="xs">
        <Text size="sm" fw={600} truncate="end" title={run.fileName}>
          Tracing {run.fileName}
        </Text>
        <Text size="sm" c="dimmed">
          {run.status === 'running' ? `${percent}%` : ''}
        </Text>
      </Group>
      <Meter
        label="Trace progress"
        percent={run.status === 'running' ? percent : null}
        text={run.status === 'running' ? `${label}: ${percent}%` : label}
        color={run.status === 'queued' ? 'gray' : 'blue'}
      />
      <Text size="sm" mt={4}>
        {label}
      </Text>
    </div>
  );
}
