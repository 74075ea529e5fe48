import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../test-utils';
import { PlayerOverlay, type PlayerOverlayProps } from './PlayerOverlay';

function show(props: Partial<PlayerOverlayProps>) {
  const handlers = { onRetry: vi.fn(), onPlay: vi.fn() };
  renderRoute(
    <PlayerOverlay error={null} buffering={false} playing={false} ended={false} {...handlers} {...props} />,
  );
  return handlers;
}

describe('PlayerOverlay', () => {
  it('shows the error with Try again, before anything else', async () => {
    const { onRetry } = show({ error: 'Your access has ended.', buffering: true });
    expect(screen.getByRole('alert')).toHaveTextContent('Your access has ended.');
    expect(screen.queryByRole('status', { name: 'Loading video' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows the spinner while buffering', async () => {
    show({ buffering: true, playing: true });
    expect(screen.getByRole('status', { name: 'Loading video' })).toBeInTheDocument();
  });

  it('offers Replay once the video has ended', async () => {
    const { onPlay } = show({ ended: true });
    await userEvent.click(screen.getByRole('button', { name: 'Replay video' }));
    expect(onPlay).toHaveBeenCalledTimes(1);
  });

  it('is empty while playing', () => {
    show({ playing: true });
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
