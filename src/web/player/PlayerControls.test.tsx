import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { controlsProps, labelInNameMismatches, pausedMedia, renderRoute, videoAt } from '../test-utils';
import { PlayerControls } from './PlayerControls';

const media = pausedMedia({ duration: 120 });

function controls(props: Omit<Parameters<typeof controlsProps>[0], 'media' | 'duration'> = {}) {
  const { container } = renderRoute(
    <PlayerControls {...controlsProps({ media, duration: 120, videoRef: videoAt(30), ...props })} />,
  );
  return container;
}

describe('PlayerControls', () => {
  it('shows the time, play, mute, speed and fullscreen; no CC button without captions', () => {
    controls();
    expect(screen.getByTestId('elapsed')).toHaveTextContent('00:30');
    for (const name of ['Play', 'Mute', 'Playback speed 1x. Change speed', 'Fullscreen'])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    expect(screen.queryByTestId('captions-button')).not.toBeInTheDocument();
  });

  it('names each control with the words it shows, if any (a speech user says what they see)', () => {
    controls({ markers: [{ seconds: 20, label: 'Question at 00:20: Why?', kind: 'question' }] });
    expect(labelInNameMismatches()).toEqual([]);
  });

  it('marks nothing on the seek bar without markers', () => {
    controls({ markers: [] });
    expect(screen.queryByRole('group', { name: 'Moments marked on the timeline' })).not.toBeInTheDocument();
  });

  it('marks each marker on the seek bar as a named button that seeks to its moment', () => {
    const onSeek = vi.fn();
    controls({
      actions: { seekTo: onSeek },
      markers: [
        { seconds: 20, label: 'Question 1', kind: 'question' },
        { seconds: 90, label: 'Note 2', kind: 'note' },
      ],
    });
    const group = screen.getByRole('group', { name: 'Moments marked on the timeline' });
    expect(group.querySelectorAll('button')).toHaveLength(2);
    screen.getByRole('button', { name: 'Note 2' }).click();
    expect(onSeek).toHaveBeenCalledWith(90);
  });
});
