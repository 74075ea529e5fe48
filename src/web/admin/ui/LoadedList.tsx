import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './DataTable';
import { Loaded } from './Loaded';
import { TableSkeleton } from './TableSkeleton';

export interface LoadedListProps<T> {
  query: UseQueryResult<T[]>;
  failure: string;
  /** The skeleton's accessible name, e.g. "Loading courses". */
  loading: string;
  rows?: number;
  empty: ReactNode;
  children(list: T[]): ReactNode;
}

/**
 * Loaded for an admin list: a table skeleton of `rows` rows named `loading` until the first answer,
 * `empty` when the list has nothing in it, else `children` with the list.
 */
export function LoadedList<T>({ query, failure, loading, rows, empty, children }: LoadedListProps<T>) {
  return (
    <Loaded query={query} failure={failure} loading={<TableSkeleton rows={rows} label={loading} />}>
      {(list) => (list.length === 0 ? empty : children(list))}
    </Loaded>
  );
}

/** A LoadedList shown as a DataTable: `children` makes each item's row (a keyed <Table.Tr>). */
export function LoadedTable<T>({
  minWidth,
  columns,
  children,
  ...list
}: Omit<LoadedListProps<T>, 'children'> &
  Pick<DataTableProps, 'minWidth' | 'columns'> & { children(item: T): ReactNode }) {
  return (
    <LoadedList {...list}>
      {(items) => (
        <DataTable minWidth={minWidth} columns={columns}>
          {items.map((item) => children(item))}
        </DataTable>
      )}
    </LoadedList>
  );
}
