import { Paper, Skeleton, Stack } from '@mantine/core';

/** Placeholder rows while a table loads (SPEC.md section 9: 3 to 5 placeholders). */
export function TableSkeleton({ rows = 4, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <Paper withBorder p="md" radius="md" aria-busy="true" aria-label={label}>
      <Stack gap="sm" data-testid="table-skeleton">
        <Skeleton height={14} width="30%" />
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} height={34} />
        ))}
      </Stack>
    </Paper>
  );
}
