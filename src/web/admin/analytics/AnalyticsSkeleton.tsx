import { SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { TableSkeleton } from '../ui/TableSkeleton';

/** The placeholder of an analytics page while it loads: title, stat cards, chart, table. */
export function AnalyticsSkeleton({
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
