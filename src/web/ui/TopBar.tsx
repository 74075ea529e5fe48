import { Box, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';

/** The sticky bar at the top of signed-in pages (student and admin), its contents spread across it. */
export function TopBar({ children }: { children: ReactNode }) {
  return (
    <Box
      component="header"
      pos="sticky"
      top={0}
      bg="var(--mantine-color-body)"
      style={{ zIndex: 100, borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Container size="xl" h={60}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          {children}
        </Group>
      </Container>
    </Box>
  );
}
