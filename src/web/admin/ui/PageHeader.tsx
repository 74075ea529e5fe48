import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen's title, a line on what it is for, and its main actions (wrapping under the title on phones). */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm" mb="lg">
      <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </Stack>
      {actions && (
        <Group gap="xs" wrap="wrap">
          {actions}
        </Group>
      )}
    </Group>
  );
}
