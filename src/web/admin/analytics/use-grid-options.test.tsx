import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_PAGE_SIZE } from '../../../contract/analytics';
import { useGridOptions } from './use-grid-options';

function withAddress(url: string) {
  let router: ReturnType<typeof createMemoryRouter> | undefined;
  const wrapper = ({ children }: { children: ReactNode }) => {
    router ??= createMemoryRouter([{ path: '/', element: children }], { initialEntries: [url] });
    return <RouterProvider router={router} />;
  };
  return { wrapper, search: () => router!.state.location.search };
}

describe('useGridOptions', () => {
  it('reads the view from the address, with defaults for what is missing or unknown', () => {
    const { wrapper } = withAddress('/?sort=share&order=desc&filter=at-risk&page=3');
    const { result } = renderHook(() => useGridOptions(), { wrapper });
    expect(result.current[0]).toEqual({
      sort: 'share',
      order: 'desc',
      filter: 'at-risk',
      page: 3,
      pageSize: ANALYTICS_PAGE_SIZE,
    });
    const other = withAddress('/?sort=bogus&page=-2');
    const { result: defaults } = renderHook(() => useGridOptions(), { wrapper: other.wrapper });
    expect(defaults.current[0]).toMatchObject({ sort: 'name', order: 'asc', filter: 'all', page: 1 });
  });

  it('writes a change into the address, back to the first page unless a page is asked for', () => {
    const address = withAddress('/?sort=name&order=asc&filter=all&page=4');
    const { result } = renderHook(() => useGridOptions(), { wrapper: address.wrapper });
    act(() => result.current[1]({ sort: 'watchTime', order: 'desc' }));
    expect(address.search()).toBe('?sort=watchTime&order=desc&filter=all&page=1');
    act(() => result.current[1]({ page: 2 }));
    expect(result.current[0].page).toBe(2);
  });
});
