import type { UseQueryResult } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { renderRoute } from '../test-utils';
import { LoadedItems } from './LoadedItems';

const as = (query: Partial<UseQueryResult<string[]>>) => query as UseQueryResult<string[]>;

function show(query: UseQueryResult<string[]>) {
  return renderRoute(
    <LoadedItems
      query={query}
      placeholderHeight={60}
      failure="Could not load the things."
      isEmpty={(list) => list.length === 0}
      empty="Nothing yet."
    >
      {(list) => list.map((thing) => <p key={thing}>{thing}</p>)}
    </LoadedItems>,
  );
}

describe('LoadedItems', () => {
  it('shows three placeholders while loading', () => {
    const { container } = show(as({ isPending: true }));
    expect(container.querySelector('[aria-busy="true"]')!.children).toHaveLength(3);
  });

  it("says the server's message on failure, else its own", () => {
    show(as({ isPending: false, isError: true, error: new ApiError(403, 'Not yours.') }));
    expect(screen.getByText('Not yours.')).toBeInTheDocument();
    show(as({ isPending: false, isError: true, error: new Error('offline') }));
    expect(screen.getByText('Could not load the things.')).toBeInTheDocument();
  });

  it('says the empty text for an empty answer', () => {
    show(as({ isPending: false, isError: false, data: [] }));
    expect(screen.getByText('Nothing yet.')).toBeInTheDocument();
  });

  it('draws the items', () => {
    show(as({ isPending: false, isError: false, data: ['a', 'b'] }));
    expect(screen.getByText('a')).toBeInTheDocument();
    expect(screen.getByText('b')).toBeInTheDocument();
  });
});
