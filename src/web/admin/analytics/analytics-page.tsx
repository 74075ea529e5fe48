import { SimpleGrid, Skeleton, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useParams } from 'react-router';
import { analyticsMessages } from '../../../contract/analytics';
import { Loaded } from '../ui/Loaded';
import { TableSkeleton } from '../ui/TableSkeleton';

/** How an analytics page's placeholder looks while it loads: its name, stat cards and chart height. */
export interface AnalyticsSkeletonShape {
  loading: string;
  cards: number;
  chartHeight: number;
}

/**
 * The page of one analytics subject (a video, a student): reads the subject's id from the route's
 * `param`, loads it with `useAnalytics` and shows `View`; while it loads, a placeholder of its title,
 * stat cards, chart and table (`skeleton`); the analytics failure message if it fails.
 */
export function analyticsPage<T>(
  param: string,
  useAnalytics: (id: string) => UseQueryResult<T>,
  View: ComponentType<{ analytics: T }>,
  skeleton: AnalyticsSkeletonShape,
) {
  return function AnalyticsPage() {
    const id = useParams()[param] ?? '';
    const query = useAnalytics(id);
    return (
      <Loaded
        query={query}
        failure={analyticsMessages.loadFailed}
        loading={<AnalyticsSkeleton {...skeleton} />}
      >
        {(analytics) => <View analytics={analytics} />}
      </Loaded>
    );
  };
}

/** The placeholder of an analytics page while it loads: title, stat cards, chart, table. */
function AnalyticsSkeleton({ loading, cards, chartHeight }: AnalyticsSkeletonShape) {
  return (
    <Stack gap="lg" aria-busy="true" aria-label={loading}>
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
