import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled panel of an admin page (a `section` named by its heading, for screen readers' landmarks). */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
