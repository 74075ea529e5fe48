import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../test-utils';
import { FiguresTable } from './ChartTable';

describe('FiguresTable', () => {
  it('shows a header row and a row per item, a cell per column, figures on the right', () => {
    renderRoute(
      <FiguresTable
        rows={[
          { at: '00:00', viewers: 4 },
          { at: '00:30', viewers: 3 },
        ]}
        rowKey={(r) => r.at}
        columns={[
          { head: 'From', cell: (r) => r.at, mono: true },
          { head: 'Viewers', cell: (r) => r.viewers, right: true },
        ]}
      />,
    );
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['From', 'Viewers']);
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['00:30', '3']);
  });
});
