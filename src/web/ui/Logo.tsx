import { Group, Text } from '@mantine/core';
import { productName } from './product';

/** The product mark and name. */
export function Logo({ size = 28, withName = true }: { size?: number; withName?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
        <rect width="64" height="64" rx="14" fill="var(--mantine-color-red-8)" />
        <path d="M20 16h8v26h16v7H20z" fill="#fff" />
      </svg>
      {withName && (
        <Text fw={700} size="lg">
          {productName()}
        </Text>
      )}
    </Group>
  );
}
