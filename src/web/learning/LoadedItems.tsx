import { Skeleton, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { messageOf } from '../api/client';

/**
 * The body of a learning page's list (a student's notes, the staff's question queue): three
 * placeholders `placeholderHeight` high until the first answer, the failure in red, `empty` once the
 * answer `isEmpty`, else `children` with it.
 */
export function LoadedItems<T>({
  query,
  placeholderHeight,
  failure,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  placeholderHeight: number;
  failure: string;
  isEmpty(data: T): boolean;
  empty: ReactNode;
  children(data: T): ReactNode;
}) {
  if (query.isPending)
    return (
      <Stack aria-busy="true">
        <Skeleton h={placeholderHeight} />
        <Skeleton h={placeholderHeight} />
        <Skeleton h={placeholderHeight} />
      </Stack>
    );
  if (query.isError) return <Text c="red">{messageOf(query.error, failure)}</Text>;
  if (isEmpty(query.data)) return <Text c="dimmed">{empty}</Text>;
  return children(query.data);
}
