import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../test-utils';
import { ChartFigure, ChartPanel } from './ChartPanel';

describe('ChartPanel', () => {
  it('shows the title and note, and names and describes the drawing by them', async () => {
    renderRoute(
      <ChartPanel name="days" title="Watch time, last 30 days" note={<>minutes per day (Asia/Kolkata)</>}>
        <ChartFigure name="days">
          <svg />
        </ChartFigure>
        <p id="days-summary">2 min in the last 7 days.</p>
      </ChartPanel>,
    );
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Watch time, last 30 days' }),
    ).toBeInTheDocument();
    expect(screen.getByText('minutes per day (Asia/Kolkata)')).toBeInTheDocument();
    const chart = screen.getByTestId('days-chart');
    expect(chart).toHaveAccessibleName('Watch time, last 30 days');
    expect(chart).toHaveAccessibleDescription('2 min in the last 7 days.');
    expect(chart).toHaveAttribute('role', 'img');
  });
});
