import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AnalyticsCheckpoint } from '../../../contract/analytics';
import { renderRoute } from '../../test-utils';
import { CheckpointsTable } from './CheckpointsTable';

/** A checkpoint's row at `t`: reached by 3, answered and passed by 2, one right at the first try. */
const checkpoint = (
  t: number,
  kind: AnalyticsCheckpoint['kind'],
  prompt: string,
  distribution: AnalyticsCheckpoint['distribution'],
): AnalyticsCheckpoint => ({
  _id: `c${t}`,
  t,
  kind,
  prompt,
  required: false,
  reached: 3,
  answered: 2,
  passed: 2,
  firstTryCorrect: 1,
  attempts: 3,
  distribution,
});
const checkpoints: AnalyticsCheckpoint[] = [
  checkpoint(7, 'single', 'Which one?', [
    { answer: 'this', count: 1, correct: false },
    { answer: 'that', count: 2, correct: true },
  ]),
  checkpoint(52, 'output', 'What does it print?', [
    { answer: '<b>41</b>\nend', count: 2, correct: false },
    { answer: '42', count: 1, correct: true },
  ]),
  { ...checkpoint(80, 'multiple', 'Not yet', []), answered: 0, attempts: 0 },
];

describe('CheckpointsTable', () => {
  it('lists each checkpoint with its figures and its answers, the right ones said in words', async () => {
    renderRoute(<CheckpointsTable checkpoints={checkpoints} />);
    await userEvent.click(screen.getByRole('button', { name: 'Show checkpoints as a table' }));
    const rows = await screen.findAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').at(-1)).toHaveTextContent('Answers');
    const answers = (row: HTMLElement) => within(row).getAllByRole('cell').at(-1)!;
    expect(
      within(answers(rows[1]!))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['this: 1', 'that: 2 ✓ right']);
    // A student's output is text (escaped, never markup), on one line, accepted ones said so.
    const outputs = within(answers(rows[2]!)).getAllByRole('listitem');
    expect(outputs.map((li) => li.textContent)).toEqual(['<b>41</b> ⏎ end: 2', '42: 1 ✓ accepted']);
    expect(answers(rows[2]!).querySelector('b')).toBeNull();
    expect(answers(rows[3]!)).toHaveTextContent('—');
  });
});
