import { Group, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A chart's panel: its title (id `${name}-title`) with a dimmed note beside it, then the chart, its
 * summary and its table as children.
 */
export function ChartPanel({
  name,
  title,
  note,
  children,
}: {
  name: string;
  title: string;
  note: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id={`${name}-title`}>
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      </Group>
      {children}
    </Paper>
  );
}

/** The drawing of a chart: an image named by the panel's title and described by `${name}-summary`. */
export function ChartFigure({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div
      role="img"
      aria-labelledby={`${name}-title`}
      aria-describedby={`${name}-summary`}
      data-testid={`${name}-chart`}
    >
      {children}
    </div>
  );
}
