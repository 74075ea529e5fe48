import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Loaded } from './Loaded';
import { TableSkeleton } from './TableSkeleton';

/**
 * Loaded for an admin list: a table skeleton of `rows` rows named `loading` until the first answer,
 * `empty` when the list has nothing in it, else `children` with the list.
 */
export function LoadedList<T>({
  query,
  failure,
  loading,
  rows,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  failure: string;
  /** The skeleton's accessible name, e.g. "Loading courses". */
  loading: string;
  rows?: number;
  empty: ReactNode;
  children(list: T[]): ReactNode;
}) {
  return (
    <Loaded query={query} failure={failure} loading={<TableSkeleton rows={rows} label={loading} />}>
      {(list) => (list.length === 0 ? empty : children(list))}
    </Loaded>
  );
}
