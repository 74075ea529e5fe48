import { List, Text } from '@mantine/core';
import type { AnalyticsCheckpoint } from '../../../contract/analytics';
import type { AnswerCount } from '../../../contract/checkpoints';
import { ChartTable, FiguresTable } from './ChartTable';
import { at, percent } from './format';

/** The figures of each checkpoint, in columns of their own (issue 39). */
const CHECKPOINT_FIGURES: [string, keyof AnalyticsCheckpoint | typeof passRate][] = [
  ['Reached', 'reached'],
  ['Answered', 'answered'],
  ['Passed', 'passed'],
  ['Pass rate', (c) => passRate(c)],
  ['Right first time', 'firstTryCorrect'],
  ['Attempts', 'attempts'],
];

/** The video's checkpoints with how students fared there and what they answered, behind a toggle. */
export function CheckpointsTable({ checkpoints }: { checkpoints: AnalyticsCheckpoint[] }) {
  return (
    <ChartTable label="Checkpoints as a table">
      <FiguresTable
        stickyHeader
        rows={checkpoints}
        rowKey={(c) => c._id}
        columns={[
          { head: 'Moment', cell: (c) => at(c.t), mono: true },
          { head: 'Question', cell: (c) => firstLine(c.prompt) + (c.required ? ' (required)' : '') },
          ...CHECKPOINT_FIGURES.map(([head, figure]) => ({
            head,
            cell: (c: AnalyticsCheckpoint) => (typeof figure === 'function' ? figure(c) : String(c[figure])),
            right: true,
          })),
          { head: 'Answers', cell: (c) => <Answers checkpoint={c} /> },
        ]}
      />
    </ChartTable>
  );
}

/**
 * The answers' distribution: each choice (or common output) with its attempts, the right ones
 * marked in words as well as with a tick, never by colour alone.
 */
function Answers({ checkpoint: c }: { checkpoint: AnalyticsCheckpoint }) {
  if (c.attempts === 0) return <>—</>;
  const right = c.kind === 'output' ? 'accepted' : 'right';
  return (
    <List size="xs" listStyleType="none" spacing={0} miw={140}>
      {c.distribution.map((d, i) => (
        <List.Item key={i}>
          <Text span size="xs" ff={c.kind === 'output' ? 'monospace' : undefined} title={d.answer}>
            {shortAnswer(d)}
          </Text>
          {`: ${d.count}`}
          {d.correct && <Text span size="xs" fw={600}>{` ✓ ${right}`}</Text>}
        </List.Item>
      ))}
    </List>
  );
}

/** An answer on one short line: line ends shown as ⏎, long ones cut (the full text in its title). */
function shortAnswer(d: AnswerCount): string {
  const line = d.answer === '' ? '(empty)' : d.answer.replace(/\n/g, ' ⏎ ');
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

/** Of the students who answered a checkpoint, the share that passed it ("—" before any answer). */
export const passRate = (c: AnalyticsCheckpoint) => (c.answered ? percent(c.passed / c.answered) : '—');

/** A prompt's first line of text, short enough for a table cell. */
function firstLine(prompt: string): string {
  const line = prompt.split('\n').find((l) => l.trim() && !l.startsWith('```')) ?? prompt;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
