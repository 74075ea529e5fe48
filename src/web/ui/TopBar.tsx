import { Box, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';

/** The bar's height in px: the toasts show below it (Toaster.tsx). */
export const TOP_BAR_HEIGHT = 60;

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
      <Container size="xl" h={TOP_BAR_HEIGHT}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          {children}
        </Group>
      </Container>
    </Box>
  );
}
