import { SimpleGrid, Skeleton, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { analyticsMessages } from '../../../contract/analytics';
import { Loaded } from '../ui/Loaded';
import { TableSkeleton } from '../ui/TableSkeleton';

/**
 * An analytics page around its data: while it loads, a placeholder of its title, `cards` stat cards,
 * a chart `chartHeight` high and a table, named `loading`; the analytics failure message if it fails.
 */
export function AnalyticsLoaded<T>({
  query,
  loading,
  cards,
  chartHeight,
  children,
}: {
  query: UseQueryResult<T>;
  loading: string;
  cards: number;
  chartHeight: number;
  children(data: T): ReactNode;
}) {
  return (
    <Loaded
      query={query}
      failure={analyticsMessages.loadFailed}
      loading={<AnalyticsSkeleton label={loading} cards={cards} chartHeight={chartHeight} />}
    >
      {children}
    </Loaded>
  );
}

/** The placeholder of an analytics page while it loads: title, stat cards, chart, table. */
function AnalyticsSkeleton({
  label,
  cards,
  chartHeight,
}: {
  label: string;
  cards: number;
  chartHeight: number;
}) {
  return (
    <Stack gap="lg" aria-busy="true" aria-label={label}>
      <Skeleton h={40} w="45%" />
      <SimpleGrid cols={{ base: 2, md: cards }}>
        {Array.from({ length: cards }, (_, i) => (
          <Skeleton key={i} h={76} />
        ))}
      </SimpleGrid>
      <Skeleton h={chartHeight} />
      <TableSkeleton rows={3} />
    </Stack>
  );
}
