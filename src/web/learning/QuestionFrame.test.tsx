import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../test-utils';
import { QuestionFrame } from './QuestionFrame';

describe('QuestionFrame', () => {
  it("shows the server's frame of the moment, described by its moment", () => {
    renderRoute(<QuestionFrame question={{ t: 65, frameUrl: '/api/questions/q1/frame.jpg' }} />);
    const img = screen.getByRole('img', { name: 'The lecture at 1:05, where the question was asked' });
    expect(img).toHaveAttribute('src', '/api/questions/q1/frame.jpg');
  });

  it('shows nothing before the server took it', () => {
    renderRoute(<QuestionFrame question={{ t: 65, frameUrl: null }} />);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });
});
