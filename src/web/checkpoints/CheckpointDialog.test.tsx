import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { checkpointMessages, type StudentCheckpoint } from '../../contract/checkpoints';
import { ApiError } from '../api/client';
import { theme } from '../app/theme';
import { CheckpointDialog } from './CheckpointDialog';

const checkpoint = (over: Partial<StudentCheckpoint>): StudentCheckpoint => ({
  _id: 'cp1',
  t: 30,
  kind: 'single',
  prompt: 'What does this print?\n```py\nprint(1 + 1)\n```',
  choices: ['11', '2'],
  required: true,
  passed: false,
  ...over,
});

describe('checkpoint dialog', () => {
  it('takes the answer by keyboard, reads the result out, and sends a wrong answer back to rewatch', async () => {
    const user = userEvent.setup();
    const submit = vi.fn().mockResolvedValue({ correct: false, rewindTo: 12 });
    const onRewind = vi.fn();
    render(
      <MantineProvider theme={theme}>
        <CheckpointDialog checkpoint={checkpoint({})} submit={submit} onDone={() => {}} onRewind={onRewind} />
      </MantineProvider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Checkpoint at 0:30 (required)' });
    expect(dialog).toHaveTextContent('print(1 + 1)');
    expect(screen.queryByRole('button', { name: 'Skip' })).not.toBeInTheDocument();
    // Focus starts on the first choice; arrows pick, Enter sends.
    await waitFor(() => expect(screen.getByRole('radio', { name: '11' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await user.click(screen.getByRole('button', { name: 'Check answer' }));
    expect(submit).toHaveBeenCalledWith(expect.any(Number));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Not quite. Watch again from 0:12, then try once more.',
    );
    await waitFor(() => expect(onRewind).toHaveBeenCalledWith(12), { timeout: 3000 });
  });

  it('takes an output as typed and goes on after a right answer; one not required can be skipped', async () => {
    const user = userEvent.setup();
    const submit = vi.fn().mockResolvedValue({ correct: true });
    const onDone = vi.fn();
    render(
      <MantineProvider theme={theme}>
        <CheckpointDialog
          checkpoint={checkpoint({ kind: 'output', choices: [], required: false })}
          submit={submit}
          onDone={onDone}
          onRewind={() => {}}
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('button', { name: 'Skip' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'What does it print?' }), '2');
    await user.click(screen.getByRole('button', { name: 'Check answer' }));
    expect(submit).toHaveBeenCalledWith('2');
    expect(await screen.findByRole('status')).toHaveTextContent('Right. The lecture goes on.');
    await waitFor(() => expect(onDone).toHaveBeenCalled(), { timeout: 3000 });
  });
  it('told to watch the part again first, it says so and goes back to it', async () => {
    const user = userEvent.setup();
    const submit = vi
      .fn()
      .mockRejectedValue(
        new ApiError(409, checkpointMessages.rewatchFirst, {
          message: checkpointMessages.rewatchFirst,
          rewindTo: 12,
        }),
      );
    const onRewind = vi.fn();
    render(
      <MantineProvider theme={theme}>
        <CheckpointDialog checkpoint={checkpoint({})} submit={submit} onDone={() => {}} onRewind={onRewind} />
      </MantineProvider>,
    );
    await user.click(screen.getByRole('radio', { name: '2' }));
    await user.click(screen.getByRole('button', { name: 'Check answer' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Watch the part again before you answer.');
    await waitFor(() => expect(onRewind).toHaveBeenCalledWith(12), { timeout: 3000 });
  });
});
